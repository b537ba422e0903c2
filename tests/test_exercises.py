"""course_lib.exercises: the registry, every reference solution, answer forms, feedback,
encoding, function answers on hidden cases (time limit, smallest failing case)."""

import json
import math
import threading
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import course_lib as cl
from course_key.ch07 import precision_at_k
from course_key.ch13 import is_roc_curve, max_auc_below_one
from course_lib.exercises import (
    CHAPTERS,
    REGISTRY,
    SOLUTION_IMPORTS,
    Exercise,
    Feedback,
    _core,
    check,
    decode_answer,
    encode_answer,
    exercises_for,
    get,
)

IDS = list(REGISTRY)


def _solution_value(exercise):
    ns = {}
    exec(SOLUTION_IMPORTS, ns)
    exec(exercise.solution_code, ns)
    return ns[exercise.answer_name]


# ----------------------------------------------------------------- the registry
def test_registry_counts():
    assert len(REGISTRY) >= 50
    assert CHAPTERS == tuple(range(1, 19))
    for chapter in CHAPTERS:
        assert len(exercises_for(chapter)) >= 4, chapter
    assert len(exercises_for(13)) >= 8


def test_ids_are_stable_and_unique():
    for exercise_id, exercise in REGISTRY.items():
        assert exercise.id == exercise_id
        assert exercise_id == exercise_id.lower() and " " not in exercise_id
    assert "auc-pairs-table1" in REGISTRY


def test_registry_is_read_only():
    with pytest.raises(TypeError):
        REGISTRY["x"] = None  # type: ignore[index]


def test_exercises_for_is_in_book_order_and_validates():
    chapters = [e.chapter for e in REGISTRY.values()]
    assert chapters == sorted(chapters)
    assert exercises_for(3)[0].id == "auc-pairs-table1"
    for bad in (0, 19, "3", True):
        with pytest.raises(ValueError):
            exercises_for(bad)


def test_get_names_an_unknown_id():
    with pytest.raises(ValueError, match="no-such-exercise"):
        get("no-such-exercise")
    with pytest.raises(ValueError):
        check("no-such-exercise", 1)


@pytest.mark.parametrize("exercise_id", IDS)
def test_exercise_fields(exercise_id):
    e = get(exercise_id)
    assert isinstance(e, Exercise)
    assert e.kind in ("value", "function")
    assert e.points >= 1 and e.title and e.question
    assert e.answer_name.isidentifier()
    assert e.stub.startswith(f"{e.answer_name} = ...")
    # Self-contained: no source letters or figure numbers of the sources.
    for word in ("source D", "source G", "source K", "source S", "source C", "рис"):
        assert word not in e.question
    if e.kind == "value":
        assert e.hidden_cases(0) == []
    else:
        cases = e.hidden_cases(0)
        assert len(cases) >= 5
        json.dumps(cases)  # plain JSON values
        assert e.hidden_cases(0) == cases  # reproducible from the seed


@pytest.mark.parametrize("exercise_id", IDS)
def test_reference_solution_passes(exercise_id):
    """Both the stored reference and the notebook's solution code pass, full marks."""
    e = get(exercise_id)
    for answer in (e.solution, _solution_value(e)):
        for seed in (0, 1):
            fb = e.check(answer, seed=seed)
            assert fb.passed, fb
            assert fb.points == e.points and fb.max_points == e.points


@pytest.mark.parametrize("exercise_id", IDS)
def test_stub_is_not_answered(exercise_id):
    e = get(exercise_id)
    fb = check(exercise_id, ...)
    assert not fb.passed and fb.points == 0
    assert "not answered yet" in fb.message
    ns = {}
    exec(e.stub, ns)
    assert e.check(ns[e.answer_name]).message == fb.message


@pytest.mark.parametrize("exercise_id", IDS)
def test_encoded_solution_passes(exercise_id):
    """A value answer survives the trip through JSON; a function's outputs do too."""
    e = get(exercise_id)
    if e.kind == "value":
        data = json.loads(json.dumps(encode_answer(_solution_value(e))))
        assert e.check(decode_answer(data)).passed
    else:
        cases = e.hidden_cases(5)
        outputs = [json.loads(json.dumps(encode_answer(_core.call_with_limit(
            e.solution, dict(c), 2.0)))) for c in cases]
        assert e.check_outputs(cases, outputs).passed


@pytest.mark.parametrize("exercise_id", IDS)
def test_odd_answers_never_raise(exercise_id):
    e = get(exercise_id)
    for answer in (None, "abc", [], {}, object(), float("nan"), lambda: 1, 10**400,
                   np.array([[1, 2], [3, 4]]), sympy.Symbol("x")):
        fb = e.check(answer, seed=0)
        assert isinstance(fb, Feedback) and not fb.passed and fb.points == 0


# ----------------------------------------------------------------- answer forms
@pytest.mark.parametrize("answer", [
    Fraction(19, 24), "19/24", " 19 / 24 ", 19 / 24, np.float64(19 / 24), [Fraction(19, 24)],
    np.array([19 / 24]), sympy.Rational(19, 24), "79.16666666666667%"])
def test_equivalent_forms_are_accepted(answer):
    assert check("auc-pairs-table1", answer).passed


def test_float_for_an_exact_answer_gets_a_note():
    fb = check("auc-pairs-table1", 0.7916666666666666)
    assert fb.passed and "exact value is 19/24" in fb.message
    assert not check("auc-pairs-table1", 0.7917).passed  # 1e-9, not 4 digits


@pytest.mark.parametrize("answer, words", [
    (True, "truth value"), ("nineteen", "could not read"), ([0.5, 0.3], "one number"),
    (lambda: 0, "function"), ("1/0", "could not read")])
def test_wrong_forms_are_rejected_with_a_reason(answer, words):
    fb = check("auc-pairs-table1", answer)
    assert not fb.passed and words in fb.message


def test_integer_forms_of_an_integer_answer():
    for answer in (15200, np.int64(15200), 15200.0, "15200", Fraction(15200)):
        assert check("pairs-sample-size", answer).passed


def test_float_answers_state_their_tolerance():
    fb = check("soft-auc-table1", cl.soft_auc([0, 0, 0, 1, 1, 1, 0],
                                              [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]) + 5e-7)
    assert fb.passed and "within 1e-06" in fb.message


def test_tuple_answers_give_partial_credit_and_accept_dicts():
    fb = check("thinned-patients", (Fraction(12, 13), Fraction(4, 5), 0.3, 0.1))
    assert not fb.passed and fb.points == pytest.approx(0.5)
    assert "accuracy: correct" in fb.message and "recall:" in fb.message
    fb = check("thinned-patients", {"accuracy": "12/13", "precision": "4/5",
                                    "recall": "4/5", "balanced_accuracy": "92/105"})
    assert fb.passed
    assert "expected 4 values" in check("thinned-patients", (1, 2)).message


def test_yes_no_answers():
    assert check("roc-node-reachable", False).passed
    assert check("roc-node-reachable", "no").passed
    assert check("roc-node-reachable", np.bool_(False)).passed
    assert not check("roc-node-reachable", True).passed
    assert "not one of" in check("roc-node-reachable", "maybe").message


def test_sympy_answers():
    theta = sympy.Symbol("theta")
    # the exercise's warm-up model: p1(b) = 1/2 + b, p0(b) = 3/2 - b
    assert check("linear-tpr-formula", 1 - theta / 2 - theta**2 / 2).passed
    assert check("linear-tpr-formula", "1 - theta/2 - theta**2/2").passed
    assert check("linear-tpr-formula", (1 - theta) * (2 + theta) / 2).passed
    b = sympy.Symbol("b")
    warm_up = cl.ScoreModel(sympy.Rational(3, 2) - b, sympy.Rational(1, 2) + b)
    assert check("linear-tpr-formula", warm_up.tpr()).passed
    assert not check("linear-tpr-formula", cl.LINEAR_DENSITIES.tpr()).passed
    assert not check("linear-tpr-formula", "__import__('os')").passed


def test_points_answers():
    good = [(0, 0), (0, "1/3"), (0.25, 1 / 3), ("1/4", "2/3"), (0.5, 1), (0.75, 1), (1, 1)]
    assert check("roc-vertices-table1", good).passed
    assert check("roc-vertices-table1", np.array(good, dtype=object)).passed
    assert "pair" in check("roc-vertices-table1", [1, 2, 3]).message


def test_example_answers_are_judged_by_property():
    assert check("d-q5-example", {"y": [0, 1, 1, 0], "b1": [1, 4, 0, 2],
                                  "b2": [2, 0, 4, 1]}).passed
    fb = check("d-q5-example", {"y": [1, 0], "b1": [1, 0], "b2": [1, 0]})
    assert not fb.passed and "not both 1/2" in fb.message
    assert "keys" in check("d-q5-example", [1, 2]).message


# ----------------------------------------------------------------- feedback
def test_feedback_renders():
    fb = check("auc-pairs-table1", 0.75)
    html = fb._repr_html_()
    assert "Not passed" in html and 'role="status"' in html and "0/1 points" in html
    assert "<script" not in html and "http" not in html and "class=" not in html
    assert str(fb).startswith("auc-pairs-table1: not passed (0/1 points).")
    assert json.loads(json.dumps(fb.to_dict())) == fb.to_dict()
    ok = check("auc-pairs-table1", "19/24")
    assert "Passed" in ok._repr_html_() and "#1a7f37" in ok._repr_html_()


def test_feedback_escapes_html():
    fb = Feedback("x", False, 0.0, 1, "<b>1 < 2</b>")
    assert "&lt;b&gt;" in fb._repr_html_()


# ----------------------------------------------------------------- encoding
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
    | st.fractions(),
    lambda children: st.lists(children, max_size=4) | st.tuples(children, children),
    max_leaves=10))
def test_encode_decode_round_trip(value):
    data = json.loads(json.dumps(encode_answer(value)))
    assert decode_answer(data) == value


def test_encode_special_values():
    assert math.isnan(decode_answer(json.loads(json.dumps(encode_answer(float("nan"))))))
    assert decode_answer(encode_answer(...)) is ...
    arr = np.array([[1.5, 2.0], [3.0, 4.0]])
    back = decode_answer(json.loads(json.dumps(encode_answer(arr))))
    assert back.dtype == arr.dtype and np.array_equal(back, arr)
    assert decode_answer(encode_answer(np.int64(3))) == 3
    x = sympy.Symbol("theta", real=True)
    expr = 1 - x**2 / 3 + sympy.sqrt(2)
    assert sympy.simplify(decode_answer(json.loads(json.dumps(encode_answer(expr)))) - expr) == 0
    assert decode_answer(encode_answer({"y": [1, 0]})) == {"y": [1, 0]}
    assert encode_answer(len)["type"] == "callable"
    assert not check("auc-pairs-table1", decode_answer(encode_answer(len))).passed


def test_decode_never_evaluates_code():
    hostile = {"type": "sympy", "srepr": "__import__('os').system('echo hacked')", "str": ""}
    with pytest.raises(ValueError):
        decode_answer(hostile)
    with pytest.raises(ValueError):
        decode_answer({"type": "sympy", "srepr": "Symbol.__class__", "str": ""})
    with pytest.raises(ValueError):
        decode_answer({"no": "type"})
    odd = decode_answer({"type": "unsupported", "repr": "<thing>"})
    assert not check("auc-pairs-table1", odd).passed


# ----------------------------------------------------------------- function answers
def test_function_feedback_shows_the_smallest_failing_case():
    def auc_ties_zero(y_true, y_score):
        y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
        if y.all() or not y.any():
            return float("nan")
        return float((b[y][:, None] > b[~y][None, :]).mean())

    fb = check("auc-pairs-function", auc_ties_zero)
    assert not fb.passed and fb.points == 0
    assert "Smallest failing input: y_true=[1, 0], y_score=[0.5, 0.5]" in fb.message
    assert "Expected: 0.5" in fb.message and "Given: 0" in fb.message
    assert "counts one half" in fb.message


def test_function_time_limit_and_errors():
    def loops(y_true, y_score):
        while True:
            pass

    fb = check("auc-pairs-function", loops)
    assert not fb.passed and "did not finish within 2 s" in fb.message
    fb = check("auc-pairs-function", lambda y_true, y_score: 1 / 0)
    assert "ZeroDivisionError" in fb.message
    fb = check("auc-pairs-function", lambda a, b: 0.5)
    assert "TypeError" in fb.message
    assert "expected a function" in check("auc-pairs-function", 0.5).message


def test_time_limit_outside_the_main_thread():
    out = {}

    def run():
        out["value"] = _core.call_with_limit(lambda: __import__("time").sleep(5), {}, 0.2)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert out["value"] == {"__timeout__": True}


def test_check_outputs_with_markers():
    e = get("auc-pairs-function")
    cases = e.hidden_cases(3)
    outputs = [float(cl.roc_auc(**c)) if len(set(c["y_true"])) == 2 else float("nan")
               for c in cases]
    assert e.check_outputs(cases, outputs).passed
    broken = list(outputs)
    broken[-1] = {"__timeout__": True}
    assert "did not finish" in e.check_outputs(cases, broken).message
    broken[-1] = {"__error__": "TypeError: nope"}
    assert "TypeError: nope" in e.check_outputs(cases, broken).message
    assert "expected" in e.check_outputs(cases, outputs[:-1]).message
    assert not get("auc-pairs-table1").check_outputs([], []).passed


def test_hidden_cases_cover_the_edge_cases():
    cases = get("auc-weighted-function").hidden_cases(11)
    assert any(len(set(c["y_true"])) == 1 for c in cases)            # one class
    assert any(len(set(c["y_score"])) == 1 and len(set(c["y_true"])) == 2 for c in cases)
    assert any(sum(c["y_true"]) == 1 and len(c["y_true"]) >= 50 for c in cases)  # rare
    assert all("sample_weight" in c for c in cases)
    assert get("auc-pairs-function").hidden_cases(1) != get("auc-pairs-function").hidden_cases(2)


# ----------------------------------------------------------------- references
def test_precision_at_k_agrees_with_the_gain_curve():
    from course_key import _cases

    for case in _cases.precision_at_k_cases(7):
        y, b, k = case["y_true"], case["y_score"], case["k"]
        if sum(y):
            want = cl.gain_at(y, b, k / len(y)) * sum(y) / k
            assert precision_at_k(y, b, k) == pytest.approx(want, abs=1e-12)
    with pytest.raises(ValueError):
        precision_at_k([1, 0], [0.1, 0.2], 3)


@pytest.mark.parametrize("m", range(2, 6))
def test_max_auc_below_one_by_brute_force(m):
    """Over all labelings and all scores in {0, 1, 2} (three levels are enough: the
    best sample ties one positive with one negative between the two other groups)."""
    import itertools

    best = Fraction(0)
    for y in itertools.product([0, 1], repeat=m):
        if 0 < sum(y) <= m // 2:  # by symmetry of the classes
            for b in itertools.product(range(3), repeat=m):
                auc = cl.roc_auc(y, b, exact=True)
                if auc < 1:
                    best = max(best, auc)
    assert best == max_auc_below_one(m)


def test_is_roc_curve_accepts_every_empirical_curve():
    rng = np.random.default_rng(0)
    for _ in range(30):
        n = int(rng.integers(2, 15))
        y = rng.integers(0, 2, n)
        y[0], y[1] = 0, 1
        c = cl.roc_curve(y, np.round(rng.random(n), 1))
        pts = [[str(Fraction(f).limit_denominator(100)), str(Fraction(t).limit_denominator(100))]
               for f, t in zip(c.fpr, c.tpr)]
        assert is_roc_curve(pts)
    assert not is_roc_curve([["0", "0"], ["1/2", "sqrt(3)/3"], ["1", "1"]])
    assert is_roc_curve([["0", "0"], ["pi/4", "pi/4"], ["1", "1"]])


def test_low_precision_floats_are_accepted():
    assert check("auc-pairs-table1", np.float32(19 / 24)).passed
    assert check("auc-pairs-table1", np.array([19 / 24], dtype=np.float32)).passed
    assert not check("auc-pairs-table1", np.float32(0.75)).passed


def test_a_swallowed_time_limit_still_stops():
    def stubborn(y_true, y_score):
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - swallows the first alarm
                pass
            break
        while True:
            pass

    fb = check("auc-pairs-function", stubborn)
    assert "did not finish" in fb.message


def test_formula_strings_are_read_without_eval():
    assert check("linear-tpr-formula", "1 - theta/2 - theta^2/2").passed
    assert check("linear-tpr-formula", "(1 - theta) * (2 + theta) / 2").passed
    for hostile in ("open('/etc/passwd').read()", "theta.__class__", "exec('1')",
                    "theta**10**10", "lambda: 1"):
        fb = check("linear-tpr-formula", hostile)
        assert not fb.passed and "could not read" in fb.message
    with pytest.raises(ValueError):
        decode_answer({"type": "sympy", "srepr": "Pow(Integer(9), Integer(99999999999))",
                       "str": ""})
    with pytest.raises(ValueError):
        decode_answer({"type": "ndarray", "dtype": "V100000000", "shape": [1], "items": []})


def test_an_answer_that_modifies_its_inputs_cannot_change_the_cases():
    def clobbering(w, reference, objects):
        scores = [float(sum(a * b for a, b in zip(w, x))) for x in objects]
        for row in reference:
            row[:] = [0.0] * len(row)
        w[:] = [0.0] * len(w)
        return scores

    assert check("d-q2-pair-scores", clobbering).passed
