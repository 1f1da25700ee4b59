"""Sphinx settings of the course website (built by `make site`, see site/build.py).

The pages are the README, the guides in docs/ and the solution notebooks with their stored outputs:
myst-nb renders them and never runs a cell (nb_execution_mode "off"), so the build needs no kernel
and no network.
"""

project = "Tool design for LLM agents: a workbook"
author = "the course's authors"
extensions = ["myst_nb"]
nb_execution_mode = "off"  # the outputs are the ones committed with the notebooks
# The widgets were replaced by their printed form in site/build.py; nothing asks for widget JavaScript.
nb_ipywidgets_js = {}
myst_enable_extensions = ["colon_fence", "html_image"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "misc.highlighting_failure", "mystnb.unknown_mime_type"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
root_doc = "README"  # the README is the front page (site/build.py copies it to index.html)
html_theme = "sphinx_book_theme"
html_title = project
html_static_path = ["_static"]
html_css_files = ["course.css"]
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "navigation_with_keys": False,
}
html_show_sourcelink = False
# A mode the theme knows from the first page on (with none set, it logs an error to the console).
html_context = {"default_mode": "light"}
# MathJax (from a CDN) is added only to a page with math; the lessons have none, and the browser test
# fails on any request that leaves the site.
