"""Opponent modelling: per-opponent action frequencies, re-weighting of weight tables after each action, and
the hand value of every holding that re-weighting compares with (Billings et al. 1998 §4.3; Papp 1998 ch. 7).

The weight tables themselves (the 1,326 holdings, checks, normalisation, the field array) live one floor
down in `pokerlab.holdings`, which `analysis` uses too. The submodules are imported by name:
`pokerlab.modeling.frequencies`, `pokerlab.modeling.reweighting`, `pokerlab.modeling.holding_values`.
"""
