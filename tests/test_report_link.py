"""The self-study book's "Report an error" link (issue 44): on every page when the book is built with a repository
on GitHub or GitLab, a link that opens a new issue titled with the page's name; none for another host, none
without a repository, none in the course edition. The whole book's pages are checked in the slow tier
(tests/publish/test_book_site.py, tests/course/test_course.py); here the link itself and the page hook."""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import ROOT

from dpteach.publish.links import issue_url

CONF = ROOT / "dpteach" / "publish" / "templates" / "book" / "conf.py"


@pytest.mark.parametrize("repo, new_issue", [
    ("someone/dpteach", "https://github.com/someone/dpteach/issues/new"),
    ("https://github.com/someone/dpteach.git", "https://github.com/someone/dpteach/issues/new"),
    ("git@github.com:someone/dpteach.git", "https://github.com/someone/dpteach/issues/new"),
    ("https://gitlab.com/dp/course/dpteach.git", "https://gitlab.com/dp/course/dpteach/-/issues/new"),
    ("https://gitlab.example.edu/dp/dpteach", "https://gitlab.example.edu/dp/dpteach/-/issues/new"),
])
def test_a_github_or_gitlab_repository_gets_a_new_issue_link_titled_with_the_page(repo, new_issue):
    url = issue_url(repo, "Error on the page “05 · Accuracy”", "what is wrong")
    assert url.split("?")[0] == new_issue
    query = parse_qs(urlsplit(url).query)
    title, body = ("title", "body") if "github" in new_issue else ("issue[title]", "issue[description]")
    assert query == {title: ["Error on the page “05 · Accuracy”"], body: ["what is wrong"]}


@pytest.mark.parametrize("repo", ["https://bitbucket.org/someone/dpteach", "https://git.example.edu/dp/dpteach.git",
                                  "file:///srv/git/dpteach", "ssh://git@example.edu/dp/dpteach.git"])
def test_another_host_gets_no_link(repo):
    assert issue_url(repo, "Error") is None


def _conf():
    spec = importlib.util.spec_from_file_location("dpteach_book_conf", CONF)
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    return conf


_PAGE = object()      # a page's doctree (Sphinx passes None for the generated pages: search, index)


def _page_context(repo: str, report: bool, pagename: str = "05_accuracy_census_names", doctree=_PAGE) -> dict:
    conf = _conf()
    config = SimpleNamespace(dpteach_repo=repo, dpteach_report=report, html_title=conf.html_title)
    context = {"title": "05 · Accuracy and the census <em>first</em> names"}
    conf._report(SimpleNamespace(config=config), pagename, "page.html", context, doctree)
    return context


def test_every_page_of_a_self_study_book_with_a_github_repository_gets_the_link():
    context = _page_context("someone/dpteach", report=True)
    query = parse_qs(urlsplit(context["dpteach_report_url"]).query)
    assert query["title"] == ["Error on the page “05 · Accuracy and the census first names”"]
    assert "05_accuracy_census_names.html" in query["body"][0]


@pytest.mark.parametrize("repo, report, doctree", [("", True, _PAGE), ("https://git.example.edu/dp/x.git", True, _PAGE),
                                                   ("someone/dpteach", False, _PAGE), ("someone/dpteach", True, None)],
                         ids=["no repository", "another host", "course edition", "search page"])
def test_no_link_without_a_repository_on_another_host_in_the_course_edition_or_on_generated_pages(repo, report,
                                                                                                   doctree):
    assert not _page_context(repo, report, doctree=doctree).get("dpteach_report_url")
