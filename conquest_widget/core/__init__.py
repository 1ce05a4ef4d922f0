"""The game-independent core: shared protocol pieces that every game engine uses.

Pure Python: nothing here imports ipywidgets, ipyleaflet or geopandas.
"""
