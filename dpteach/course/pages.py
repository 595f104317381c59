"""The pages grading writes for people: each student's feedback, and the class report for the instructor.

Both are one self-contained HTML file each: no script, no network, readable on a phone, every text that
came from a submission escaped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 18px/1.5 system-ui, sans-serif; max-width: 50rem; margin: 1.5rem auto; padding: 0 1rem; color: #1a1a1a; }}
h1 {{ font-size: 1.6rem; }} h2 {{ font-size: 1.25rem; margin-top: 2rem; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ text-align: left; vertical-align: top; padding: .5rem; border-bottom: 1px solid #ccc; }}
.points {{ white-space: nowrap; font-weight: bold; }} .right {{ color: #1b6e20; }} .wrong {{ color: #a4161a; }}
.count {{ font-weight: normal; color: #444; }} h3 {{ font-size: 1.05rem; margin: 1.5rem 0 .25rem; }}
.note {{ background: #fff4d6; padding: .5rem .75rem; border-left: 4px solid #d9a400; }}
.parts {{ color: #444; font-size: .9em; }}
code {{ font-size: .95em; overflow-wrap: anywhere; }}
@media (max-width: 40rem) {{
  /* the header row out of sight, not out of the accessibility tree: each cell keeps its column's name */
  tr.head {{ display: table-row; position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
    overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }}
  tr {{ display: block; border-bottom: 1px solid #ccc; padding: .5rem 0; }}
  td {{ display: block; border: none; padding: .15rem 0; }} td.points {{ display: inline-block; margin-right: 1rem; }}
}}
</style></head><body>
<h1>{title}</h1>
{body}
</body></html>
"""


def _title(exercise: str) -> str:
    return exercise.replace("_", " ").capitalize()


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def feedback_page(student: str, records: Sequence[dict], name: str = "", titles: dict | None = None) -> str:
    """One page a student reads (no kernel, no script): per notebook (headed by its assignment's title from
    ``titles``), each question's points part by part and the checker's message, the cells that raised, why
    anything scored 0. Every text from a submission is escaped."""
    body = []
    for record in records:
        chapter = (titles or {}).get(record.get("chapter")) or record.get("chapter") or "(chapter not known)"
        body.append(f"<h2>{escape(chapter)}: {_number(record['total'])} / {_number(record['possible'])} points</h2>")
        if record.get("file"):
            body.append(f"<p>File: <code>{escape(str(record['file']))}</code></p>")
        for text in ([record["reason"]] if record.get("reason") else []) + list(record.get("flags", [])):
            body.append(f'<p class="note">{escape(text)}</p>')
        if record.get("questions"):
            body.append('<table><tr class="head"><th>exercise</th><th>points</th><th>what the checker says</th></tr>')
            for question in record["questions"]:
                kind = "right" if question["points"] == question["possible"] else "wrong"
                said = escape(str(question.get("message", "")))
                if question.get("strict") and question.get("correct") is True:   # the hand point counts only then
                    said += "<br>" + escape(str(question["strict"]))
                if question.get("override"):
                    said += "<br><b>" + escape(f"Changed by your instructor: {question['override']}") + "</b>"
                if len(question.get("parts", [])) > 1:
                    said += '<br><span class="parts">' + escape("; ".join(
                        f"{_number(p['earned'])} / {_number(p['points'])} for {p['part']}" for p in question["parts"])) + "</span>"
                body.append(f'<tr><td class="points">{escape(_title(str(question["exercise"])))}</td>'
                            f'<td class="points {kind}">{_number(question["points"])} / {_number(question["possible"])}'
                            f"</td><td>{said}</td></tr>")
            body.append("</table>")
        for cell in record.get("cells", []):
            body.append(f"<p>Cell {cell['cell']} raised: <code>{escape(str(cell['error']))}</code></p>")
    who = f"{name} ({student})" if name and name != student else student
    return _PAGE.format(title=escape(f"Feedback for {who}"), body="\n".join(body))


def _gist(message: str) -> str:
    """A message with its numbers left out: one named mistake, whatever case or value it was seen with."""
    return re.sub(r"−?-?\d[\d.,·⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*", "…", message).strip()[:200]


def class_report(records: Sequence[dict], manifest: Mapping, unmatched: Sequence[dict] = (),
                 changes: Sequence[dict] = (), titles: Mapping[str, str] | None = None) -> str:
    """A page for the instructor: per exercise, how many got it right, and the most common named mistakes
    with their counts (what to teach again), with a bar per exercise (inline SVG: no script, no network);
    then the notebooks flagged, those not graded, the files that matched no rule or no student, and every
    stored grade a run replaced or kept (``changes``: the rows of ``replacements.csv``). Each chapter is headed by
    its assignment's title in ``titles`` (else its name)."""
    body = []
    for chapter, entry in manifest["chapters"].items():
        graded = [r for r in records if r.get("chapter") == chapter and r.get("status") != "missing"]
        if not graded:
            continue
        readable = [r for r in graded if r.get("questions")]
        missing = sum(r.get("status") == "missing" for r in records if r.get("chapter") == chapter)
        body.append(f"<h2>{escape((titles or {}).get(chapter, chapter))}: {len(graded)} notebooks, {len(readable)} graded"
                    + (f", {missing} student{'s' * (missing != 1)} handed in nothing" if missing else "") + "</h2>")
        for exercise in entry.get("exercises", []):
            answers = [q for r in readable for q in r["questions"] if q["exercise"] == exercise["name"]]
            right = sum(q["points"] == q["possible"] for q in answers)
            blank = sum(q.get("correct") is None for q in answers)
            share = right / len(answers) if answers else 0.0
            body.append(f'<h3>{escape(_title(exercise["name"]))} <span class="count">{right} of {len(answers)} right '
                        f'({share:.0%}), {blank} not answered</span></h3>')
            body.append(f'<svg width="100%" height="18" viewBox="0 0 100 6" preserveAspectRatio="none" role="img" '
                        f'aria-label="{share:.0%} right"><rect width="100" height="6" fill="#e6e6e6"/>'
                        f'<rect width="{100 * share:.2f}" height="6" fill="#1b6e20"/></svg>')
            mistakes: dict[str, list] = {}
            for q in answers:
                if q.get("correct") is False and q.get("message"):
                    mistakes.setdefault(_gist(q["message"]), []).append(q["message"])
            if mistakes:
                body.append("<table><tr class=\"head\"><th>students</th><th>what the checker said (an example)</th></tr>")
                for seen in sorted(mistakes.values(), key=lambda seen: (-len(seen), seen[0]))[:5]:
                    body.append(f'<tr><td class="points">{len(seen)}</td><td>{escape(seen[0])}</td></tr>')
                body.append("</table>")
    flagged = [r for r in records if r.get("flags")]
    if flagged:
        body.append(f"<h2>Flagged: {len(flagged)} (graded at their submitter's own numbers; look at them)</h2><ul>" + "".join(
            f"<li>{escape(r['id'])}, {escape(r.get('chapter', ''))}: {escape('; '.join(r['flags']))}</li>"
            for r in sorted(flagged, key=lambda r: r["id"])) + "</ul>")
    unreadable = [r for r in records if not r.get("questions") and r.get("status") == "error"]
    if unreadable:
        body.append(f"<h2>Not graded: {len(unreadable)}</h2><ul>" + "".join(
            f"<li>{escape(r['id'])}: {escape(r['reason'])}</li>" for r in sorted(unreadable, key=lambda r: r["id"])) + "</ul>")
    if unmatched:
        body.append(f"<h2>Files that match no student on the roster: {len(unmatched)}</h2><ul>" + "".join(
            f"<li><code>{escape(r['file'])}</code>: {escape(r['reason'])}</li>" for r in unmatched) + "</ul>")
    if changes:
        replaced = sum(c.get("what") == "replaced" for c in changes)
        body.append(f"<h2>Stored grades replaced: {replaced}; kept against a newer notebook: {len(changes) - replaced}"
                    "</h2><table><tr class=\"head\"><th>when</th><th>student, chapter</th><th>what</th>"
                    "<th>before</th><th>after</th></tr>" + "".join(
                        f"<tr><td>{escape(c.get('when', ''))}</td><td>{escape(c.get('id', ''))}, "
                        f"{escape(c.get('chapter', ''))}</td><td>{escape(c.get('what', ''))}: {escape(c.get('why', ''))}"
                        f"</td><td>{escape(c.get('before', ''))} <code>{escape(c.get('before file', ''))}</code></td>"
                        f"<td>{escape(c.get('after', ''))} <code>{escape(c.get('after file', ''))}</code></td></tr>"
                        for c in changes) + "</table>")
    return _PAGE.format(title="The class: what was right, what to teach again", body="\n".join(body))


def write_pages(out: Path, shown: Mapping[str, list[dict]], students: Sequence[str], names: Mapping[str, str],
                records: Sequence[dict], manifest: Mapping, unmatched: Sequence[dict], changes: Sequence[dict],
                titles: Mapping[str, str]) -> None:
    """``out/feedback/<id>.html`` for each of ``students`` (their records in ``shown``, headed by their ``names``),
    and ``out/report.html``, the class report of ``records``."""
    from .store import file_name
    for student in students:
        (out / "feedback" / f"{file_name(student)}.html").write_text(
            feedback_page(student, shown[student], names.get(student, ""), titles), encoding="utf-8")
    (out / "report.html").write_text(class_report(records, manifest, unmatched, changes, titles), encoding="utf-8")
