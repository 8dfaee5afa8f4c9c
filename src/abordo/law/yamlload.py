"""YAML as its 1.2 core schema reads booleans: only ``true``/``false``.

PyYAML follows YAML 1.1, where an unquoted ``NO`` (Norway's ISO code), ``ON``, ``yes`` or
``off`` is a boolean. Country codes appear unquoted in inputs and in the rule tables, so every
YAML the project reads (inputs, case files, data tables) uses these loaders: ``NO`` stays the
text ``NO``; a boolean field written ``yes``/``sim`` is read by its model, which knows it is a
boolean. Repeated keys are refused (one would silently replace the other).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_BOOL = "tag:yaml.org,2002:bool"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_CORE_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")


def core_resolvers(timestamps: bool) -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """SafeLoader's implicit resolvers with YAML 1.2 core booleans; ``timestamps`` False
    leaves dates as text."""
    out: dict[Any, list[tuple[str, re.Pattern[str]]]] = {
        k: [(tag, rx) for tag, rx in v if tag != _BOOL and (timestamps or tag != _TIMESTAMP)]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    for first in "tTfF":
        out.setdefault(first, []).append((_BOOL, _CORE_BOOL))
    return out


def no_duplicate_keys(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False
                      ) -> dict[Any, Any]:
    """A mapping whose keys are unique: a repeated key would silently replace the first
    (merge keys, ``<<: *anchor``, are resolved first, as PyYAML's own mappings do)."""
    loader.flatten_mapping(node)
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"chave repetida '{key}' (também na linha {seen[key]}) ‖ repeated "
                f"key '{key}' (also on line {seen[key]})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


class DataLoader(yaml.SafeLoader):
    """The project's own data tables: dates parsed, YAML 1.2 booleans, unique keys."""


DataLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, no_duplicate_keys)
DataLoader.yaml_implicit_resolvers = core_resolvers(timestamps=True)


def load_data_text(text: str) -> Any:
    """Parse a data table's text with :class:`DataLoader`."""
    return yaml.load(text, Loader=DataLoader)
