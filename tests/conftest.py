"""Fixtures shared by the test modules: the browser tests' JupyterLab and Chromium."""

from browser_support import browser, lab  # noqa: F401 (pytest finds fixtures by name here)
