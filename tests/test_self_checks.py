"""Self-checks that tell the truth (issue 28, item 1).

A student copy's ``check`` of a function answer runs the public cases only, so it says
what it ran and gives no points; the public cases cover what the hidden cases test, so
that the typical wrong answers (``known_wrong.py``, written here and not taken from the
key) that pass every public case fail at most ``MAX_HIDDEN_SHARE`` of the hidden cases;
a wrong parameter name is told the signature; a decimal near an exact answer is told to
give it exactly; no hint states the answer; the format example of the messages is no
exercise's answer.
"""

import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest
from known_wrong import KNOWN_WRONG

from course_lib.exercises import REGISTRY
from course_lib.exercises._core import (
    CALL_TIME_LIMIT,
    FORMAT_EXAMPLE,
    ChoiceChecker,
    NumberChecker,
    PredicateChecker,
    TupleChecker,
    _copy_case,
    _reference_output,
    as_number,
    call_with_limit,
)
from course_lib.exercises.sealed import SealedCheck, seal_key

#: The largest share of hidden cases a known wrong answer that passes every public case
#: may fail (over the hidden cases of ``HIDDEN_SEEDS``).
MAX_HIDDEN_SHARE = 0.10
HIDDEN_SEEDS = range(5)
#: Variants tried per exercise that has variants.
VARIANT_SEEDS = (1, 2, 3, 4)

FUNCTIONS = [ex for ex in REGISTRY.values() if ex.kind == "function"]
VALUES = [ex for ex in REGISTRY.values() if ex.kind == "value"]


def _instances(ex, seeds=VARIANT_SEEDS):
    yield ex
    if ex.variants is not None:
        for seed in seeds:
            yield ex.variant(seed)


def _fails(ex, func, cases) -> list[bool]:
    """Whether ``func`` is wrong on each case, as the grader judges it."""
    spec = ex.function
    out = []
    for case in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = _reference_output(spec.reference, case)
            given = call_with_limit(func, _copy_case(case), CALL_TIME_LIMIT)
        try:
            reason = spec.judge(case, expected, given)
        except Exception as exc:  # noqa: BLE001 - an odd output is a failure
            reason = repr(exc)
        out.append(reason is not None)
    return out


def _unicode_free(text: str) -> str:
    return text.replace("\u2212", "-")


# ----------------------------------------------------------------- public cases
def test_every_function_exercise_is_listed_with_its_known_wrong_answers():
    assert {ex.id for ex in FUNCTIONS} == set(KNOWN_WRONG)


@pytest.mark.parametrize("ex", FUNCTIONS, ids=lambda e: e.id)
def test_public_cases_are_named_and_among_the_hidden_cases(ex):
    for inst in _instances(ex):
        public = inst.public_cases()
        assert inst.function.public and 3 <= len(public) <= 8, inst.id
        for seed in (0, 1, 7, 12345):
            hidden = inst.hidden_cases(seed)
            assert all(case in hidden for case in public), (inst.id, seed)


@pytest.mark.parametrize("ex", FUNCTIONS, ids=lambda e: e.id)
def test_a_known_wrong_answer_that_passes_the_public_cases_passes_most_hidden_cases(ex):
    """What the copy's check says (the sealed check, with the public cases it holds) is
    set against what the grader finds (the hidden cases of five seeds)."""
    for inst in _instances(ex):
        check = SealedCheck(seal_key([inst]))
        for name, wrong in KNOWN_WRONG[ex.id](inst):
            told = check(inst.id, wrong)
            public_fails = _fails(inst, wrong, inst.public_cases())
            # the copy says "passes" exactly when the grader's judge passes them all
            assert told.passed == (not any(public_fails)), (inst.id, name, str(told))
            if not told.passed:
                continue
            hidden = [f for seed in HIDDEN_SEEDS
                      for f in _fails(inst, wrong, inst.hidden_cases(seed))]
            share = sum(hidden) / len(hidden)
            assert share <= MAX_HIDDEN_SHARE, (
                f"{inst.id} ({inst.data}): {name!r} passes the public cases but fails "
                f"{share:.0%} of the hidden ones")


def test_the_typical_wrong_answers_mostly_fail_a_public_case():
    """Most known wrong answers are caught by the copy's own check."""
    total = caught = 0
    for ex in FUNCTIONS:
        for _name, wrong in KNOWN_WRONG[ex.id](ex):
            total += 1
            caught += any(_fails(ex, wrong, ex.public_cases()))
    assert total >= 100 and caught / total >= 0.9, (caught, total)


def test_the_issue_s_raw_pair_count_fails_a_public_case():
    ex = REGISTRY["auc-pairs-function"]
    check = SealedCheck(seal_key([ex]))

    def raw(y_true, y_score):
        pos = [s for s, y in zip(y_score, y_true) if y]
        neg = [s for s, y in zip(y_score, y_true) if not y]
        return sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)

    def zero_for_one_class(y_true, y_score):
        pos = [s for s, y in zip(y_score, y_true) if y]
        neg = [s for s, y in zip(y_score, y_true) if not y]
        if not pos or not neg:
            return 0.0
        return raw(y_true, y_score) / (len(pos) * len(neg))

    for wrong in (raw, zero_for_one_class):
        fb = check(ex.id, wrong)
        assert not fb.passed and fb.points == 0 and "public cases" in fb.message


# ----------------------------------------------------------------- what check says
@pytest.mark.parametrize("ex", FUNCTIONS, ids=lambda e: e.id)
@pytest.mark.parametrize("mode", ["full", "verdict"])
def test_a_copy_s_check_of_a_function_says_what_it_ran(ex, mode):
    check = SealedCheck(seal_key([ex], feedback=mode))
    fb = check(ex.id, ex.function.reference)
    n = len(ex.public_cases())
    assert fb.passed and fb.public_only and fb.points == 0
    text = str(fb)
    assert f"passes the {n} public cases; graded on hidden cases as well" in text
    assert "passed (" not in text and "points)" in text
    assert f"passes the {n} public cases" in fb._repr_html_()
    assert "Passed</strong>" not in fb._repr_html_()
    assert fb.to_dict()["public_only"] is True


def test_with_the_key_a_function_is_graded_on_hidden_cases_as_before():
    """The book's chapters run ``check`` with the key: their stored outputs stay."""
    ex = REGISTRY["auc-pairs-function"]
    fb = ex.check(ex.solution)
    assert str(fb) == "auc-pairs-function: passed (2/2 points). correct on every hidden case"
    assert not fb.public_only and "public_only" not in fb.to_dict()


# ----------------------------------------------------------------- parameter names
def _renamed(ex):
    """The reference under other parameter names (y, s, ...), as a student writes it."""
    names = [f"p{i}" for i in range(len(ex.parameters()))]
    ns = {"ref": ex.function.reference, "params": ex.parameters()}
    exec(f"def {ex.answer_name}({', '.join(names)}):\n"
         f"    return ref(**dict(zip(params, [{', '.join(names)}])))", ns)
    return ns[ex.answer_name]


@pytest.mark.parametrize("ex", FUNCTIONS, ids=lambda e: e.id)
def test_a_wrong_parameter_name_is_told_the_signature(ex):
    params = ex.parameters()
    expected = f"your function must accept ({', '.join(params)}), by these names"
    call = f"{ex.answer_name}(" + ", ".join(f"{p}=..." for p in params) + ")"
    answer = _renamed(ex)
    for fb in (ex.check(answer, seed=0), SealedCheck(seal_key([ex]))(ex.id, answer),
               SealedCheck(seal_key([ex], feedback="verdict"))(ex.id, answer)):
        assert not fb.passed and fb.points == 0
        assert expected in fb.message and call in fb.message, fb.message
        assert "yours takes (p0" in fb.message
    # the grader runs the function elsewhere and sees only the errors it raised
    cases = ex.hidden_cases(0)
    outputs = [{"__error__": f"TypeError: {ex.answer_name}() got an unexpected keyword "
                             f"argument '{params[0]}'"}] * len(cases)
    fb = ex.check_outputs(cases, outputs)
    assert not fb.passed and f"Hint: {expected}" in fb.message and call in fb.message


def test_an_error_inside_the_function_is_not_taken_for_a_wrong_name():
    ex = REGISTRY["auc-pairs-function"]

    def auc_pairs(y_true, y_score):
        return sorted(y_score, reversed=True)  # TypeError from sorted, not from the call

    for fb in (ex.check(auc_pairs, seed=0), SealedCheck(seal_key([ex]))(ex.id, auc_pairs)):
        assert not fb.passed and "must accept" not in fb.message, fb.message


# ----------------------------------------------------------------- close decimals
def _exact_parts(ex):
    """(part checker, its exact reference) of the number parts with a Fraction reference."""
    checkers = ex.checker.parts if isinstance(ex.checker, TupleChecker) else [ex.checker]
    return [c for c in checkers if isinstance(c, NumberChecker)
            and isinstance(c.expected, Fraction) and c.expected.denominator > 1]


EXACT = [ex for ex in VALUES if _exact_parts(ex) and not isinstance(ex.checker, TupleChecker)]


@pytest.mark.parametrize("ex", EXACT, ids=lambda e: e.id)
def test_a_decimal_close_to_an_exact_answer_is_told_to_give_it_exactly(ex):
    (checker,) = _exact_parts(ex)
    value = checker.expected
    check = SealedCheck(seal_key([ex]))
    for digits in (4, 5):
        decimal = round(float(value), digits)
        if abs(decimal - float(value)) <= 1e-9 or any(
                abs(decimal - float(as_number(m.value))) <= 1e-9 for m in checker.mistakes):
            continue
        for fb in (ex.check(decimal), check(ex.id, decimal), ex.check(str(decimal))):
            assert not fb.passed and fb.points == 0
            assert "close: give it exactly, e.g. Fraction(p, q)" in fb.message, fb.message
            assert f"{value.numerator}/{value.denominator}" not in fb.message
            assert f"Fraction({value.numerator}, {value.denominator})" not in fb.message
    far = float(value) + 0.01 * max(1.0, abs(float(value)))
    assert "close" not in ex.check(far).message
    assert "close" not in check(ex.id, far).message


def test_the_issue_s_four_decimals_are_close():
    fb = REGISTRY["auc-pairs-table1"].check(0.7917)
    assert fb.message == '0.7917 is close: give it exactly, e.g. Fraction(p, q) or the string "p/q"'
    verdict = SealedCheck(seal_key([REGISTRY["auc-pairs-table1"]], feedback="verdict"))
    assert verdict("auc-pairs-table1", 0.7917).message == "not right"  # no hint in verdict


# ----------------------------------------------------------------- hints
def _hints(checker) -> list[str]:
    if isinstance(checker, NumberChecker):
        return [checker.hint, *(m.hint for m in checker.mistakes)]
    if isinstance(checker, ChoiceChecker):
        return [checker.hint, *checker.mistakes.values()]
    if isinstance(checker, TupleChecker):
        return [h for _, h in checker.whole_mistake_values] + [
            h for part in checker.parts for h in _hints(part)]
    if isinstance(checker, PredicateChecker) and checker.expression is not None:
        return [checker.expression[3], *(m.hint for m in checker.expression[2])]
    return []


def _references(checker) -> list:
    if isinstance(checker, NumberChecker):
        return [checker.expected]
    if isinstance(checker, TupleChecker):
        return [v for part in checker.parts for v in _references(part)]
    return []


def _tokens(value) -> list[str]:
    """How a hint would state the value: p/q and the decimal to 4 places."""
    out = []
    if isinstance(value, Fraction) and value.denominator > 1:
        out.append(f"{value.numerator}/{value.denominator}")
    if not (isinstance(value, Fraction) and value.denominator == 1) and math.isfinite(value):
        out.append(f"{float(value):.4f}")
    return out


@pytest.mark.parametrize("ex", VALUES, ids=lambda e: e.id)
def test_no_hint_states_the_answer(ex):
    """No hint holds a reference value (as p/q or its decimal to 4 places), unless the
    question itself gives that number (a given the hint repeats)."""
    for inst in _instances(ex, seeds=range(12)):
        hints = [h for h in _hints(inst.checker) if h]
        for value in _references(inst.checker):
            for token in _tokens(value):
                if token in inst.question:
                    continue
                pattern = re.compile(r"(?<![\d/.])" + re.escape(token) + r"(?![\d/])")
                leaked = [h for h in hints if pattern.search(_unicode_free(h))]
                assert not leaked, (inst.id, inst.data, token, leaked)


#: Formulas that were the answer itself (now reworded): none may come back.
ANSWER_FORMULAS = {
    "auc-binarized-answer": ["(1 + TPR - FPR)/2"],
    "auc-from-gini": ["(1 + Gini)/2"],
    "gini-max-ten": ["1 - 1/n"],
    "gini-brown-incomes": ["1 - 2 x"],
    "pairs-sample-size": ["2 m1 m0"],
    "soft-auc-beta-zero": ["sigma(0) = 1/2"],
    "sd-of-difference": ["sqrt("],
    "inverse-cdf-positive": ["sqrt(u)", "b^2"],
    "d-q1-ks-rare": ["pi TPR + (1 - pi) FPR"],
    "d-q4-max-auc": ["1/(2 m1 m0)", "min("],
    "d-q8-roc-condition": ["rational coordinates"],
    "isotonic-table1": ["the value is"],
    "severity-ratio-beta": ["1 + 1/SR", "beta = 1 +"],
    "min-loss-at-pi1": ["pi0 pi1 (1 - KS)", "twice"],
    "mcclish-table1-half": ["(1 + that)"],
    "report-psi": ["sum (a - e) ln(a/e)"],
    "credit-share-auc": ["f + (1 - f)/2"],
}


@pytest.mark.parametrize("exercise_id", sorted(ANSWER_FORMULAS))
def test_no_hint_gives_the_answer_s_formula(exercise_id):
    ex = REGISTRY[exercise_id]
    for inst in _instances(ex, seeds=range(3)):
        hints = (_hints(inst.checker) if inst.checker is not None
                 else [h for _, h in inst.function.wrong_versions])
        for formula in ANSWER_FORMULAS[exercise_id]:
            assert not [h for h in hints if formula in h], (inst.id, formula)


# ----------------------------------------------------------------- format example
def _example_numbers() -> list[Fraction]:
    return [Fraction(t) for t in re.findall(r"\d+/\d+|\d*\.\d+", FORMAT_EXAMPLE)]


def test_the_format_example_is_no_exercise_s_answer():
    examples = _example_numbers()
    assert examples == [Fraction(5, 11)]
    seen = 0
    for ex in VALUES:
        for inst in _instances(ex, seeds=range(30)):
            for value in _references(inst.checker):
                seen += 1
                for example in examples:
                    assert abs(float(value) - float(example)) > 1e-6, (inst.id, inst.data)
    assert seen > 1000


def test_an_unreadable_string_is_shown_the_neutral_format():
    fb = REGISTRY["auc-pairs-table1"].check("nineteen")
    assert FORMAT_EXAMPLE in fb.message
    assert "19/24" not in fb.message and "0.7917" not in fb.message
    sealed = SealedCheck(seal_key([REGISTRY["auc-pairs-table1"]]))("auc-pairs-table1", "x")
    assert FORMAT_EXAMPLE in sealed.message


def test_the_public_cases_show_no_value_exercise_s_data():
    """The public cases' expected outputs are in every copy: none is computed on the
    data of a value exercise of the book (Table 1 above all)."""
    data = [(list(ex.data["y"]), [float(v) for v in ex.data["b"]]) for ex in VALUES
            if isinstance(ex.data, dict) and {"y", "b"} <= set(ex.data)]
    assert data
    for ex in FUNCTIONS:
        for case in ex.public_cases():
            if "y_true" in case:
                pair = (list(case["y_true"]), [float(v) for v in case["y_score"]])
                assert pair not in data, (ex.id, case)


def test_public_cases_are_plain_json_values():
    import json

    for ex in FUNCTIONS:
        for inst in _instances(ex, seeds=(1,)):
            for case in inst.public_cases():
                assert json.loads(json.dumps(case)) == case
                assert all(not isinstance(v, np.ndarray) for v in case.values())
