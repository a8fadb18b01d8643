"""The rule registry (config/registry.py) is the one list of rule ids: the rule packs,
the check modules and the engine's stages all agree with it; `checks.check` loads a
rule's check function."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

from asimov_hooks import checks
from asimov_hooks.config import registry
from asimov_hooks.config.config import default_data, known_rule_ids

NEEDS = {"path", "text", "data", "git", "emitted"}


def _pack_rule_ids() -> set[str]:
    data = default_data()
    found = set(data.get("rules", {}))
    for spec in data["kinds"].values():
        found |= set(spec.get("rules", {}))
    return found


def test_every_rule_in_the_packs_is_registered_and_every_registered_rule_has_defaults() -> None:
    packs = _pack_rule_ids()
    assert packs - set(registry.ids()) == set(), "add these rules to config/registry.INDEX"
    assert set(registry.ids()) - packs == set(), "give these rules defaults in rules/kinds.json"


def test_known_rule_ids_are_the_registry() -> None:
    assert known_rule_ids() == set(registry.ids())


def test_needs_are_words_the_engine_knows() -> None:
    for rid in registry.ids():
        words = registry.needs(rid)
        assert words and words <= NEEDS, rid
        # a rule runs in one stage: before reading, on the text, or on the data
        assert len(words & {"path", "text", "data"}) <= 1, rid


@pytest.mark.parametrize("rid", registry.ids())
def test_each_rule_has_a_check_unless_it_is_emitted_elsewhere(rid: str) -> None:
    module = importlib.import_module(registry.module_name(rid))
    if "emitted" in registry.needs(rid):
        assert rid not in module.RULES
        assert module.__doc__ and rid in module.__doc__, "document emitted rules in their module"
    else:
        assert callable(checks.check(rid))
        assert checks.check(rid) is module.RULES[rid]


def test_check_modules_declare_only_registered_rules() -> None:
    for info in pkgutil.iter_modules(checks.__path__):
        module = importlib.import_module(f"asimov_hooks.checks.{info.name}")
        for rid in getattr(module, "RULES", {}):
            assert registry.INDEX.get(rid, ("?",))[0] == info.name, (info.name, rid)


def test_stages_cover_every_checked_rule_once() -> None:
    staged = [*registry.PATH_CHECKS, *registry.TEXT_CHECKS, *registry.DATA_CHECKS]
    assert len(staged) == len(set(staged))
    checked = {rid for rid in registry.ids() if "emitted" not in registry.needs(rid)}
    assert set(staged) == checked
    assert {"must-be-ignored", "checkpoints-tracked"} == registry.PATH_RULES
    assert {
        "max-lines-soft",
        "max-lines-hard",
        "max-tokens",
        "max-bytes-soft",
        "max-bytes-hard",
        "max-chars",
        "shared-byte-budget",
    } == registry.SIZE_RULES
    assert "schema" not in registry.TEXT_RULES and "conflict-markers" in registry.TEXT_RULES


def test_describe_gives_level_and_kinds_from_the_packs() -> None:
    info = {r.id: r for r in registry.describe(default_data())}
    assert list(info) == list(registry.ids())
    assert info["max-tokens"].level == "warning"
    assert set(info["max-tokens"].kinds) == {"asimov-checkpoint", "claude-md", "asimov-warmup"}
    assert info["must-be-ignored"].kinds == ["code-intel-session"]
    # a rule in the top-level `rules` applies to every kind
    assert set(info["syntax"].kinds) == set(default_data()["kinds"])
    assert info["schema"].module == "asimov_hooks.checks.schema"


def test_describe_follows_a_config(tmp_path) -> None:
    from asimov_hooks.config.config import load_config

    (tmp_path / ".asimov-hooks.yaml").write_text(
        "kinds:\n  claude-md:\n    rules:\n      max-tokens: off\n"
    )
    config = load_config(start=str(tmp_path))
    info = {r.id: r for r in registry.describe(config.data)}
    assert "claude-md" not in info["max-tokens"].kinds
    assert "asimov-checkpoint" in info["max-tokens"].kinds
    assert info["max-tokens"].level == "warning"  # asimov-checkpoint's, the first kind's


def test_asking_the_registry_imports_no_rule_module() -> None:
    code = (
        "import sys\n"
        "from asimov_hooks.config import registry\n"
        "registry.ids(); registry.needs('schema'); registry.PATH_RULES\n"
        "print(sorted(m for m in sys.modules if m.startswith('asimov_hooks')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [
        "['asimov_hooks',",
        "'asimov_hooks.config',",
        "'asimov_hooks.config.registry']",
    ]
