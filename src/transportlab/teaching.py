"""Public checks of the teaching assignments that say what they checked.

otter's ``grader.check("q1")`` prints "q1 passed!" as soon as a question's *public*
checks pass. Ours test an answer's form, plausible range and a few common mistakes;
the hidden checks grade its value when the instructor grades the notebook. Students
read "passed!" as "my answer is right", and wrong answers were told so (issue 27).

:class:`Notebook` is otter's notebook (``grader``) whose ``check`` says "format checked;
graded later" when every public check holds, and names the hint of every check that
failed otherwise. Where hidden checks ran too (grading, the instructor's reference
notebook) it shows otter's own report.
"""

from __future__ import annotations

import html
import inspect
from typing import Any

import otter

GRADED_LATER = "format checked; graded later"


def failure_reasons(message: str) -> list[str]:
    """The exception line of every failed example in a doctest report (otter's OK tests).

    ``AssertionError: tcp_wire_bytes is 1040; expected 1054: ...`` instead of the whole
    traceback; an example that failed without an exception gives its expected output.
    """
    reasons, lines = [], message.splitlines()
    for index, line in enumerate(lines):
        if line.strip() == "Exception raised:":
            block = []
            for following in lines[index + 1 :]:
                if following.strip() and not following.startswith(" "):
                    break
                block.append(following.strip())
            block = [b for b in block if b]
            # the exception follows the last traceback frame ("File ...", its source
            # line and the carets under it)
            frames = [i for i, b in enumerate(block) if b.startswith("File ")]
            tail = block[frames[-1] + 2 :] if frames else block[-1:]
            tail = [b for b in tail if set(b) - set("^~ ")]
            if tail:
                reasons.append(" ".join(tail))
        elif line.strip() == "Expected:":
            failed = [i for i in range(index) if lines[i].strip() == "Failed example:"]
            example = lines[failed[-1] + 1].strip() if failed else ""
            expected = lines[index + 1].strip() if index + 1 < len(lines) else ""
            reasons.append(f"{example}: expected {expected}")
    return reasons


class CheckResult:
    """What ``grader.check("qN")`` shows: otter's result, worded for public checks."""

    def __init__(self, question: str, result: Any) -> None:
        self.question = question
        self.result = result  # otter's TestFile: its case results, score and messages

    @property
    def public_only(self) -> bool:
        return all(not case.test_case.hidden for case in self.result.test_case_results)

    @property
    def graded_later(self) -> bool:
        """Only public checks ran, and all held: the value itself is graded later."""
        cases = self.result.test_case_results
        return bool(cases) and self.public_only and all(case.passed for case in cases)

    def text(self) -> str:
        cases = self.result.test_case_results
        count = len(cases)
        if self.graded_later:
            checks = "the public check looks" if count == 1 else f"the {count} public checks look"
            return (
                f"{self.question}: {GRADED_LATER}. Your answer has the expected form and no "
                f"mistake {checks} for; whether its value is right is decided by hidden "
                "checks when your notebook is graded."
            )
        failed = [case for case in cases if not case.passed]
        lines = [f"{self.question}: {len(failed)} of {count} public checks failed:"]
        for case in failed:
            reasons = failure_reasons(case.message or "") or [(case.message or "").strip()]
            lines += [f"  - {reason}" for reason in reasons]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text() if self.public_only else repr(self.result)

    def _repr_html_(self) -> str:
        if not self.public_only:
            return self.result._repr_html_()
        color = "" if self.graded_later else " style='color: #a00000;'"
        text = html.escape(self.text()).replace("\n", "<br>")
        return f"<p{color}>{text}</p>"


class Notebook(otter.Notebook):
    """otter's ``Notebook`` whose ``check`` returns a :class:`CheckResult`."""

    def check(self, question: str, global_env: dict[str, Any] | None = None) -> CheckResult:
        if global_env is None:  # the caller's globals, as otter's own check takes them
            frame = inspect.currentframe()
            global_env = frame.f_back.f_globals if frame and frame.f_back else {}
        return CheckResult(question, super().check(question, global_env))
