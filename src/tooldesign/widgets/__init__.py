"""Notebook widgets. Each module keeps its logic in pure functions (tested in plain pytest) and
builds the ipywidgets shell on top, importing ipywidgets only when a widget is made."""
