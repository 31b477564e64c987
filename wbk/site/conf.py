# Sphinx configuration of the static site that `make site` builds from notebooks/ (see
# wbk/publish.py): every notebook executed afresh with its panels shown as snapshots.
project = "wbk, the wargame rules workbook"
author = "wbk"
# autodoc: the API reference (reference/api.md) from the docstrings
extensions = ["myst_nb", "sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
html_theme = "sphinx_book_theme"
html_title = project
html_theme_options = {
    # a site to hand out on a USB stick: nothing fetched from elsewhere
    "use_download_button": False,
    "use_fullscreen_button": False,
    "search_bar_text": "Search the workbook...",
}
html_permalinks_icon = "#"
# no copies of the executed notebooks under _sources/ (half the site's size): nothing links them
html_copy_source = False
html_show_sourcelink = False
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
# wbk.publish.build_site has run each notebook (and kept the run for the tests): shown as run
nb_execution_mode = "off"
nb_merge_streams = True
# panels are snapshots (wbk.widgets.Panel.static_html), so no widget manager from a CDN
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
# search works from file:// too: no fetching of each result page for a summary (a browser
# refuses fetch() of local files)
html_show_search_summary = False
html_context = {"default_mode": "light"}  # the theme complains on the console without one
# wbk's additions (site/_static): search by rule and hex number, pictures opened full size
html_static_path = ["_static"]
html_js_files = ["wbk-search.js", "wbk-zoom.js"]
html_css_files = ["wbk.css"]
