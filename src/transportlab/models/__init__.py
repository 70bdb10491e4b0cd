"""Pure models of what a network does to traffic: metrics, the E-model, playout buffers.

They import nothing else of transportlab (only each other) and no ns-3: every study and
notebook may use them, and they are tested against hand-computed values.
"""
