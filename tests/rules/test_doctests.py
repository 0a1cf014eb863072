"""The examples in the rules' docstrings run (``mexitrain/rules/__init__.py``, ``rules/core``...).

One test a module of ``mexitrain/rules`` whose docstrings hold ``>>>`` examples, so an example
that stops being true fails the suite like any test. The runner is doctest's own; the last test
shows that it does fail on a wrong example.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mexitrain.rules

FINDER = doctest.DocTestFinder(exclude_empty=True)


def _modules() -> list[str]:
    names = [mexitrain.rules.__name__]
    names += [m.name for m in pkgutil.walk_packages(mexitrain.rules.__path__, prefix="mexitrain.rules.")]
    return sorted(names)


def _examples(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [t for t in FINDER.find(module, name) if t.examples and t.filename == module.__file__]


WITH_EXAMPLES = [name for name in _modules() if _examples(name)]


def _run(test: doctest.DocTest) -> tuple[doctest.TestResults, str]:
    out: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=out.append)
    return runner.summarize(verbose=False), "".join(out)


def test_the_rules_have_examples_to_run():
    assert {"mexitrain.rules", "mexitrain.rules.core"} <= set(WITH_EXAMPLES), WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_hold(name: str):
    for test in _examples(name):
        (failed, attempted), report = _run(test)
        assert attempted and not failed, report


def test_a_wrong_example_fails():
    (test,) = [t for t in _examples("mexitrain.rules") if t.name == "mexitrain.rules"]
    wrong = doctest.DocTestParser().get_doctest(
        test.docstring.replace("(1, 12, 15, 30)", "(1, 12, 15, 31)"), {}, test.name, test.filename, 0
    )
    (failed, _), report = _run(wrong)
    assert failed == 1 and "(1, 12, 15, 31)" in report
