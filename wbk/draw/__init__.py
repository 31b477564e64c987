"""Each game's drawings of its results, a module a game (``wbk.draw.<game>``), registered with
``wbk.pictures.picture`` (results drawn in a figure of their own) or ``wbk.pictures.on_map``
(results drawn on a hex map). Shared drawing (maps, tables, charts, steps) names no game and
lives beside this package: ``wbk.plot``, ``wbk.tableplot``, ``wbk.charts``, ``wbk.pictures``."""
