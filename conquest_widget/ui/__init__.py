"""The shell that knows no game: the game picker (:class:`ConquestApp`) and the match
controller (:class:`MatchController`) that game widgets draw from."""
