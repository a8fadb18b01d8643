"""The trimmer's shortcuts for the plain shape (block mappings and lists of one-line
scalars, `readers/plain_yaml`) give what its full reading gives: the answer that
nothing is to be trimmed (`algorithm._untouched`, no parse at all) and the layout read
from PyYAML's libyaml binding with the plain reader's data (`parsing._plain_nodes`, no
ruamel.yaml), on generated checkpoints, mutations of them, line soups and the benchmark
corpus's checkpoints, at several line limits; and the trimmer never refuses a plain
text whose capped fields are lists of strings (`algorithm._plain_trimmable`), which
validate's advice to run trim relies on instead of a trial trim."""

from __future__ import annotations

import os
import random
import sys
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_simple_yaml import item_soups, line_soups, more_document
from test_trim_properties import HARD, SOFT, checkpoints, config_for, mutated

from asimov_hooks.readers.plain_yaml import HandOver, plain_data
from asimov_hooks.readers.problem import YAMLProblem
from asimov_hooks.trim import algorithm, parsing
from asimov_hooks.trim.algorithm import trim_text
from asimov_hooks.trim.layout import Refused
from asimov_hooks.trim.settings import Settings

LIMITS = [(None, None), (5, 10), (SOFT, HARD), (60, 90), (None, 12)]
CONFIG = config_for("/")
TRIM = Settings.from_config(CONFIG)
SPEC = CONFIG.kinds["asimov-checkpoint"]


def outcome(text: str, soft: int | None, hard: int | None) -> tuple:
    try:
        result = trim_text(text, TRIM, soft, hard, identify=SPEC, limits=CONFIG.limits)
    except Refused as refused:
        return ("refused", str(refused))
    return (
        result.text,
        result.before,
        result.after,
        result.step,
        result.removed,
        result.comments,
        result.messages,
        result.over_hard,
        result.skipped,
    )


def same_either_way(text: str) -> bool:
    """The trim of `text` at each limit is the same with and without the shortcuts;
    whether the plain reader took the text."""
    never_refused = algorithm._plain_trimmable(text, TRIM, CONFIG.limits) is not None
    for soft, hard in LIMITS:
        quick = outcome(text, soft, hard)
        # validate's advice to run trim takes this for granted (`trim_refusal`)
        assert not (never_refused and quick[0] == "refused"), (text, soft, hard, quick)
        with (
            mock.patch.object(algorithm, "_untouched", lambda *a: False),
            mock.patch.object(parsing, "_plain_nodes", lambda text: None),
        ):
            full = outcome(text, soft, hard)
        assert quick == full, (text, soft, hard)
    try:
        return plain_data(text)[1]
    except (HandOver, YAMLProblem):
        return False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_generated_checkpoints_trim_the_same(generated) -> None:
    same_either_way(generated.text.lstrip("\ufeff"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_checkpoints_trim_the_same(text: str) -> None:
    same_either_way(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_soups(), st.sampled_from(["completed", "next_steps", "notes"]))
def test_line_soups_trim_the_same(text: str, key: str) -> None:
    # the soups' keys are single letters: one of them stands for a trimmed field
    same_either_way(text.replace("c:", f"{key}:").replace("d:", "next_steps:"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(item_soups(), st.sampled_from(["completed", "next_steps", "notes"]))
def test_item_soups_trim_the_same(text: str, key: str) -> None:
    # items that are mappings, flow lists: one of the soups' keys stands for a capped field
    same_either_way(text.replace("args:", f"{key}:").replace("name:", "completed:"))


def test_documents_with_items_trim_the_same() -> None:
    rng = random.Random(7)
    for _ in range(40):
        text = more_document(rng).replace("args", "completed").replace("name", "next_steps")
        same_either_way(text)


def test_benchmark_checkpoints_trim_the_same() -> None:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
    import corpus_files

    plain = 0
    for index in range(40):
        variant = ["valid", "oversized", "schema", "syntax", "foreign"][index % 5]
        plain += same_either_way(corpus_files.asimov_checkpoint(random.Random(index), variant))
    assert plain > 20  # most of them take the shortcuts


def test_checkpoints_with_empty_and_flow_lists_trim_the_same() -> None:
    for text in [
        "status: ok\ncompleted: []\nnext_steps: {}\n",
        "status: ok\ncompleted: [a, b]\nnext_steps:\n" + "".join(f"  - s{n}\n" for n in range(40)),
        "status: ok\ncompleted: []\nnext_steps:\n" + "".join(f"  - s{n}\n" for n in range(40)),
        "status: ok\nnotes:\n  - a: 1\n    b: [x]\ncompleted:\n" + "  - c\n" * 40,
    ]:
        same_either_way(text)


def test_a_plain_checkpoint_needs_no_ruamel() -> None:
    """Deciding there is nothing to trim, and trimming, read a plain checkpoint
    without ruamel.yaml (its import is most of a one-file hook run)."""
    import subprocess

    items = "".join(f"  - item {n}\n" for n in range(30))
    code = (
        "import sys\n"
        "from asimov_hooks.trim.algorithm import trim_text\n"
        "from asimov_hooks.trim.settings import Settings\n"
        "from asimov_hooks.config.config import Config, default_data\n"
        "config = Config(default_data(), None, '/')\n"
        "trim = Settings.from_config(config)\n"
        "small = 'status: ok\\ncompleted:\\n  - one\\n'\n"
        "assert trim_text(small, trim, 20, 30).text == small\n"
        f"big = 'status: ok\\ncompleted:\\n' + {items!r}\n"
        "assert trim_text(big, trim, 20, 30).text != big\n"
        "print('ruamel' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr
