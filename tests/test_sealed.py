"""Sealed checks: a student copy's `check` agrees with the answer key without holding it.

For every exercise of the book (and a variant of those that have variants): the key holds
no reference value; the reference passes the sealed check and every typical mistake gets
its hint, as with the real check; a float near a reference passes the sealed check only
if the real check passes it; function answers are run on public cases.
"""

import base64
import json
import zlib
from fractions import Fraction

import numpy as np
import pytest

from course_lib.exercises import REGISTRY
from course_lib.exercises._core import Mistake, NumberChecker, TupleChecker
from course_lib.exercises.sealed import SealedCheck, seal_key

DEFERRED = {"roc-vertices-table1", "d-q5-example"}  # judged by a rule only the key holds


def _instances():
    for ex in REGISTRY.values():
        yield ex
        if ex.variants is not None:
            yield ex.variant(11)


INSTANCES = list(_instances())
IDS = [ex.id if ex is REGISTRY[ex.id] else f"{ex.id}-variant" for ex in INSTANCES]


def _numbers(value):
    if isinstance(value, (Fraction, int, float)) and not isinstance(value, bool):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _numbers(v)


def _key_text(key: str) -> str:
    return zlib.decompress(base64.b64decode(key)).decode()


@pytest.mark.parametrize("ex", INSTANCES, ids=IDS)
def test_the_key_agrees_with_the_check(ex):
    key = seal_key([ex])
    check = SealedCheck(key)
    text = _key_text(key)
    if ex.kind == "value":
        for v in _numbers(ex.solution):
            if isinstance(v, Fraction) and v.denominator > 1:
                assert f"{v.numerator}/{v.denominator}" not in text
            if isinstance(v, float) and abs(v) > 1e-3 and v != round(v):
                assert repr(v) not in text and f"{v:.6f}" not in text
        fb = check(ex.id, ex.solution)
        assert fb.passed == (ex.id not in DEFERRED), fb.message
        mistakes = getattr(ex.checker, "mistakes", ())
        if isinstance(mistakes, dict):  # a ChoiceChecker: the wrong option -> its hint
            mistakes = [Mistake(option, hint) for option, hint in mistakes.items()]
        for m in mistakes:
            real, sealed = ex.check(m.value), check(ex.id, m.value)
            assert not sealed.passed
            if m.hint in real.message:
                assert m.hint in sealed.message, (real.message, sealed.message)
        assert check(ex.id, ...).points == 0
    else:
        fb = check(ex.id, ex.solution)
        assert fb.passed and fb.public_only and fb.points == 0, str(fb)
        assert not check(ex.id, 0.5).passed


@pytest.mark.parametrize("ex", [e for e in INSTANCES if isinstance(e.checker, NumberChecker)],
                         ids=lambda e: e.id)
def test_a_sealed_pass_is_a_real_pass(ex):
    """Near the tolerance the sealed check may say no where the grader says yes, never
    the other way round."""
    check = SealedCheck(seal_key([ex]))
    e = float(ex.checker.expected)
    tol = max(ex.checker.tol, 1e-9) * max(1.0, abs(e))
    rng = np.random.default_rng(0)
    for offset in np.concatenate([rng.uniform(-3, 3, 60), [0.0, 0.1, -0.1, 0.4, -0.4]]):
        given = e + offset * tol
        sealed, real = check(ex.id, given), ex.check(given)
        if sealed.passed:
            assert real.passed, (offset, sealed.message, real.message)
        if abs(offset) < 0.4:
            assert sealed.passed, offset


@pytest.mark.parametrize("ex", [e for e in INSTANCES if isinstance(e.checker, TupleChecker)
                                and e.checker.whole_mistake_values], ids=lambda e: e.id)
def test_whole_mistakes_of_tuples_are_named(ex):
    check = SealedCheck(seal_key([ex]))
    for values, hint in ex.checker.whole_mistake_values:
        real = ex.check(tuple(values))
        if hint in real.message:
            assert hint in check(ex.id, tuple(values)).message


def test_function_mistakes_are_named():
    ex = REGISTRY["auc-pairs-function"]
    check = SealedCheck(seal_key([ex]))
    wrong, hint = ex.function.wrong_versions[0]
    fb = check(ex.id, wrong)
    assert not fb.passed and "Expected" in fb.message


def test_a_changed_key_is_refused():
    with pytest.raises(ValueError, match="not a sealed key"):
        SealedCheck("abc")
    key = json.loads(_key_text(seal_key([REGISTRY["auc-pairs-table1"]])))
    with pytest.raises(ValueError, match="unknown exercise|has no exercise"):
        SealedCheck(base64.b64encode(zlib.compress(json.dumps(key).encode())).decode())("x", 1)
