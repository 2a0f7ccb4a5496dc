"""Training the policy of :mod:`take5rules.agents.policy`: data, imitation, export.

Not part of the package: run from a clone of the repository (``python -m training``).
"""
