"""The ruleset kit: what every ruleset (Lockdown, and Retaliation next) builds on, so none copies it.

- ``facts``      fact and field specs, the shape check, the documentation check.
- ``catalogue``  components from JSON data files: loading, freezing, lookup by any printed name.
- ``replace``    a fast ``dataclasses.replace`` for frozen state dataclasses, ``replace_in`` for one sub-state,
                 and drafts (one private copy, and one of each sub-state changed, changed in place inside one
                 call, frozen when it returns).
- ``builders``   violation and consequence builders.
- ``table``      ``Table(ruleset, setup)``: push / pop / history, and the generic fold (``Table.of``).
- ``player``     the random legal player (seeded play from ``next_inputs``).
- ``snapshot``   a canonical, grouping-free picture of a state and its digest.

The kit speaks only the interface of :mod:`service.rules.base`; it imports no ruleset.
"""
