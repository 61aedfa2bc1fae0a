"""Every sentence a result is reported in, and every number formatted for reading.

The statistics (:func:`calculator.analyze`, :func:`calculator.decide`,
:func:`calculator.compare_scores`, the planners) compute numbers only; this package words them,
once, for the page, the command line and the JSON alike. The surfaces reach the words through
:func:`~calculator.report.words.text` and :func:`~calculator.report.words.payload` (the JSON with
its words), so each sentence has one home here and every surface quotes it; the number modules
never import this package.

- :mod:`~calculator.report.formatting`: p-values, points, rates, levels and counts;
  :mod:`~calculator.report.figures`: scores, shares and standard errors.
- :mod:`~calculator.report.analysis`: the paste-ready report of one table.
- :mod:`~calculator.report.decision`: the answer to the release question;
  :mod:`~calculator.report.naming`: the names of its tests.
- :mod:`~calculator.report.caveats` and :mod:`~calculator.report.reconcile`: the sentences
  that qualify a result (too few pairs, a zero-width interval, interval and test disagreeing).
- :mod:`~calculator.report.clusters`: how counting clusters moves the p-value.
- :mod:`~calculator.report.gate`: the release gate's verdict.
- :mod:`~calculator.report.scores`, :mod:`~calculator.report.compare`,
  :mod:`~calculator.report.logs`, :mod:`~calculator.report.planning`: scores, three or more
  systems, harness logs and plans.

The submodules are imported where they are used; importing this package imports none of them.
"""
