"""Scale: what a growing tool set costs, and three ways to shrink it (lesson 13).

``growth`` grows the designed SAP set with plausible distractors and measures tokens (an
estimate: characters / 4) and offline selection accuracy at each size; ``search`` keeps the
definitions out until a search tool finds the top k; ``consolidate`` compares an action parameter
with a catch-all and adds the lint rule that flags the catch-all; ``widgets`` is the slider.
Each module prints its figures with ``tooldesign scale <module>``, or
``python -m tooldesign.scale.<module>``.
"""
