"""The players' games for game-AI research: OpenSpiel games (``pip install 'baccara[rl]'``)."""
