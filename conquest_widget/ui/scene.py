"""The shell's name for :mod:`conquest_widget.scene` (the scene widget moved beside
:mod:`conquest_widget.lean` so that the maps, which import nothing of the shell, use it too)."""

from conquest_widget.scene import MAX_TARGET, SceneWidget

__all__ = ["MAX_TARGET", "SceneWidget"]
