"""Seeds of the per-student variants: derived from a class secret and the student's name.

The instructor keeps one secret per class (any string; ``secrets.token_hex(16)`` makes a
good one). A student's seed is ``HMAC-SHA256(secret, student)``, shown as 32 hex digits
and never written anywhere; an exercise's seed is derived from the student's seed
and the exercise id, so that the exercises of one copy are independent. Without the
secret nobody can compute a student's seed, and a copy does not hold it: it holds the
variant's data (the numbers in its questions) and an identifier (:func:`copy_id`, another
HMAC of the name under the secret, from which the seed cannot be computed). The grader
derives the seed from the secret and the name on the submitted file, so a copy made for
somebody else is graded on the submitter's own variant, and its identifier shows whose
copy it was.

>>> s = student_seed("class secret", "Alice")
>>> s == student_seed("class secret", "  alice ") and len(s)
32
>>> exercise_seed(s, "auc-pairs-table1") == exercise_seed(s, "auc-pairs-table1")
True
>>> student_seed("class secret", "bob") != s
True
>>> c = copy_id("class secret", "Alice")
>>> c == copy_id("class secret", "alice"), len(c), c in s
(True, 16, False)
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

__all__ = ["copy_id", "exercise_seed", "normalize_student", "student_seed"]


def normalize_student(name: str) -> str:
    """The student id as it is compared: NFC, surrounding blanks removed, case folded.

    >>> normalize_student(" Zoë.Smith ")
    'zoë.smith'
    """
    if not isinstance(name, str):
        raise ValueError(f"a student name must be a string, got {type(name).__name__}")
    text = unicodedata.normalize("NFC", name).strip().casefold()
    if not text:
        raise ValueError("a student name must not be empty")
    return text


def student_seed(secret: str, student: str) -> str:
    """32 hex digits: HMAC-SHA256 of the normalized student name under the class secret."""
    if not isinstance(secret, str) or len(secret) < 8:
        raise ValueError("the class secret must be a string of at least 8 characters")
    digest = hmac.new(secret.encode("utf-8"), normalize_student(student).encode("utf-8"),
                      hashlib.sha256).hexdigest()
    return digest[:32]


def exercise_seed(seed: str, exercise_id: str) -> int:
    """The seed of one exercise's variant (a 63-bit int) from a student's seed."""
    if not isinstance(seed, str) or len(seed) != 32 or any(c not in "0123456789abcdef"
                                                           for c in seed):
        raise ValueError(f"a student seed is 32 lowercase hex digits, got {seed!r}")
    digest = hashlib.sha256(f"{seed}:{exercise_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def copy_id(secret: str, student: str) -> str:
    """16 hex digits that name a student's copy: HMAC-SHA256 of ``"copy:" + name``.

    Recorded in the copy's metadata; the grader recomputes it for the submitter's name to
    see whether a copy was made for somebody else. It is a different HMAC from
    :func:`student_seed`'s, so the seed (and with the public key the variant's answers)
    cannot be derived from it.
    """
    if not isinstance(secret, str) or len(secret) < 8:
        raise ValueError("the class secret must be a string of at least 8 characters")
    message = "copy:" + normalize_student(student)
    return hmac.new(secret.encode("utf-8"), message.encode("utf-8"),
                    hashlib.sha256).hexdigest()[:16]
