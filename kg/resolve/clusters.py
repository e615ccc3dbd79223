"""The clusters being formed: a union-find over entity IRIs that keeps never-merge pairs apart and
records which rule joined what."""
from __future__ import annotations

from typing import Iterable


class Clusters:
    """Union-find over entity IRIs that refuses to join two IRIs a never-merge pair separates."""

    def __init__(self, items: Iterable[str]) -> None:
        self.parent = {i: i for i in items}
        self.members = {i: {i} for i in self.parent}
        self.banned: dict[str, set[str]] = {i: set() for i in self.parent}
        self.reasons: list[tuple[str, str, str]] = []

    def find(self, x: str) -> str:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def ban(self, a: str, b: str) -> None:
        self.banned[self.find(a)].add(b)
        self.banned[self.find(b)].add(a)

    def allowed(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        return ra == rb or not (self.banned[ra] & self.members[rb] or self.banned[rb] & self.members[ra])

    def union(self, a: str, b: str, rule: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        if not self.allowed(a, b):
            return False
        if (len(self.members[ra]), rb) < (len(self.members[rb]), ra):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.members[ra] |= self.members.pop(rb)
        self.banned[ra] |= self.banned.pop(rb)
        self.reasons.append((a, b, rule))
        return True
