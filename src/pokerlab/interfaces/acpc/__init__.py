"""The ACPC protocol (version 2.0.0, see docs/references.md): game definitions, MATCHSTATE lines, a client
that
plays our agents at any protocol dealer, and a dealer that seats protocol clients at our table."""
