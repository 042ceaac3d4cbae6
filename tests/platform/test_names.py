"""Suggestions by edit distance: a plausible typo gets its name, a word that
merely shares letters gets nothing."""
import pytest

from pbem.kit.names import distance, nearest, tolerance


@pytest.mark.parametrize("a,b,d", [("france", "france", 0), ("frnce", "france", 1), ("germnay", "germany", 1),
                                   ("marroco", "marocco", 2), ("", "abc", 3), ("ab", "ba", 1)])
def test_distance_counts_inserts_deletes_replacements_and_swaps(a, b, d):
    assert distance(a, b) == d == distance(b, a)


@pytest.mark.parametrize("typo,names,found", [
    ("Frnce", ["France", "Britain"], "France"),
    ("Orange Rivr Free State", ["Orange River Free State", "Transvaal"], "Orange River Free State"),
    ("Manchurai", ["Manchuria", "Mongolia"], "Manchuria"),
    ("Bosnia", ["Abyssinia", "Borneo"], None),
    ("albania", ["Britain", "Arabia", "Algiers"], None),
    ("uk", ["Britain"], None),
    ("", ["Britain"], None),
])
def test_nearest_offers_only_a_plausible_typo(typo, names, found):
    assert nearest(typo, names) == found


def test_tolerance_grows_with_the_length_of_the_word():
    assert [tolerance(n) for n in (3, 4, 8, 9, 20)] == [0, 1, 2, 3, 4]


def test_words_a_grammar_split_are_joined_into_known_names():
    from pbem.kit.names import join_words

    known = {"United States", "France", "Austria-Hungary"}
    resolve = {"UNITED STATES": "United States", "FRANCE": "France",
               "AUSTRIA HUNGARY": "Austria-Hungary"}.get
    resolve_any = lambda name: resolve(name.upper(), name)  # noqa: E731
    assert join_words(["United", "States", "France"], resolve_any, known) == ["United States", "France"]
    assert join_words(["Austria", "Hungary"], resolve_any, known) == ["Austria Hungary"]
    assert join_words(["Frnce", "United"], resolve_any, known) == ["Frnce", "United"]
