from __future__ import annotations

from sidekit_hooks.code.parse import Definition, Import, facts_of, module_name

SOURCE = b'''
"""helper in a docstring"""
import os.path
import numpy as np
from . import sibling
from ..base import Base as B, helper
X: int = 1
Y = Z = 2

class Shape(B):
    size = 3  # class attribute: not module level

    def area(self, scale=1):
        # helper in a comment
        return helper(self.size) * np.pi

    class Inner:
        async def go(self):
            def local():
                return "helper"
            return local

def top(*args, **kwargs):
    return os.path.join(X, sibling.value)
'''


def test_definitions_are_functions_classes_methods_and_module_names() -> None:
    facts = facts_of(SOURCE, "pkg.sub.shapes", False)
    assert facts.definitions == [
        Definition("X", "variable", 7),
        Definition("Y", "variable", 8),
        Definition("Z", "variable", 8),
        Definition("Shape", "class", 10),
        Definition("Shape.area", "method", 13, "(self, scale=1)"),
        Definition("Shape.Inner", "class", 17),
        Definition("Shape.Inner.go", "method", 18, "(self)"),
        Definition("top", "function", 23, "(*args, **kwargs)"),
    ]


def test_imports_resolve_relative_modules_and_keep_aliases() -> None:
    facts = facts_of(SOURCE, "pkg.sub.shapes", False)
    assert facts.imports == [
        Import("os.path", "", "os", 3),
        Import("numpy", "", "np", 4),
        Import("pkg.sub", "sibling", "sibling", 5),
        Import("pkg.base", "Base", "B", 6),
        Import("pkg.base", "helper", "helper", 6),
    ]
    assert facts_of(b"from . import x\n", "pkg", True).imports == [Import("pkg", "x", "x", 1)]


def test_references_come_from_code_never_from_comments_or_strings() -> None:
    facts = facts_of(SOURCE, "pkg.sub.shapes", False)
    helper_lines = sorted(line for name, line in facts.references if name == "helper")
    assert helper_lines == [6, 15]  # the import and the call; not the docstring, comment or string
    base_lines = sorted(line for name, line in facts.references if name == "Base")
    assert base_lines == [6, 10]  # the alias B is credited to what it imports
    assert ("numpy", 15) in facts.references and ("pi", 15) in facts.references


def test_module_names_climb_only_through_packages() -> None:
    packages = frozenset({"src/pkg", "src/pkg/sub"})
    assert module_name("src/pkg/sub/mod.py", packages) == "pkg.sub.mod"
    assert module_name("src/pkg/__init__.py", packages) == "pkg"
    assert module_name("tests/test_x.py", packages) == "test_x"
