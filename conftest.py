"""Tests draw without a screen: matplotlib's Agg backend for this process only.

Notebook kernels (the site build's, JupyterLab's, the app's) are separate processes and keep
their own backends.
"""

import matplotlib

matplotlib.use("Agg")
