"""euchre-sim: Monte Carlo double-dummy analysis of Euchre and its relatives."""

__version__ = "0.1.0"
