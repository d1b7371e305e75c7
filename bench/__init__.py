"""drawdsl's benchmark: the same exact questions asked of drawdsl, icepool, lea and reference methods.

Run ``python -m bench`` (see bench/README.md).  The numbers are reported, never asserted.
"""
