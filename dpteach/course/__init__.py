"""The course wing: homework for a course that grades, and its grading, for instructors.

Nothing here is imported by ``import dpteach``. One entry point, run from the project's root::

    python -m dpteach.course assign ...   # the hand-out and what the instructor keeps (make course)
    python -m dpteach.course grade ...    # grade the collected notebooks (make grade)

* :mod:`.assign`: the course edition of the chapters (no solution, the course's own numbers) and the
  manifest the grader reads.
* :mod:`.grading`: one submission executed in its own kernel and every verdict computed outside it;
  a class graded in parallel, into a gradebook and feedback.
* :mod:`.sandbox`: where a student's code runs (a kernel, a function on hidden cases), with limits.

It builds on the publishing wing (:mod:`dpteach.publish`: the project's folders, the editions, the
book), never the other way.
"""
