"""The course wing: homework for a course that grades, and its grading, for instructors.

Nothing here is imported by ``import dpteach``. One entry point, run from the project's root::

    python -m dpteach.course assign ...     # the hand-out and what the instructor keeps (make course)
    python -m dpteach.course grade ...      # grade the collected notebooks (make grade)
    python -m dpteach.course gradebook ...  # write the gradebook again, with the instructor's overrides

Building a course:

* :mod:`.assign`: the course (each student's notebooks, the book, what a course repository installs) and
  the course file the grader reads; :mod:`.edition`: one chapter's course edition; :mod:`.roster`: the
  students, from an LMS's export.

Grading (one core, thin front ends):

* :mod:`.grading`: a class graded in parallel, each submission run and judged; :mod:`.manifest`: the
  course file and the naming of submissions; :mod:`.identity`: whose a submission is and whether it was
  made for them; :mod:`.reading`: answers and functions read from a notebook's cells;
* :mod:`.sandbox` (with :mod:`.inside` and :mod:`.plain`): where a student's code runs, with limits;
  :mod:`.functions`: a student's function on hidden cases, in a sandbox;
* :mod:`.gradebook`: the gradebooks and overrides; :mod:`.exports`: Canvas's and Moodle's imports;
  :mod:`.pages`: each student's feedback page and the class report.

It builds on the publishing wing (:mod:`dpteach.publish`: the project's folders, the editions, the
book), never the other way.
"""
