"""Tests draw without a screen: matplotlib's Agg backend for this process only.

Notebook kernels started by nbval are separate processes and keep their own backends.
"""

import matplotlib

matplotlib.use("Agg")
