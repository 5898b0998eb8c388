/* People's names as a league compares them: one name, one member, however it was typed.
 *
 * The display form is the name as typed, trimmed of every Unicode White_Space character at
 * both ends, each inner run of them made one space (U+0020), in Normalization Form C: "Bob ",
 * "\u2003Bob", "Bob\u00a0" display as "Bob", "Zoe\u0301" (e and a combining acute) as "Zoé".
 * The key is what two names compare by: the display form without its default-ignorable code
 * points (invisible: zero-width space U+200B, joiners U+200C/U+200D, word joiner U+2060, byte
 * order mark U+FEFF, soft hyphen U+00AD, variation selectors …), case-folded by Unicode's full
 * folding (CaseFolding.txt C + F, no language's special rules) and put in NFC again: "Bob",
 * "bOb", "BOB" and "Bo\u200bb" share the key "bob"; "Straße" and "STRASSE" the key "strasse";
 * Turkish "İ" (U+0130) folds to "i̇" (i and a combining dot), so "İpek" and "ipek" are two names.
 * Zero-width space is not white space (it is not White_Space in Unicode): it neither trims nor
 * separates words, it is left out of the key like every other invisible character.
 *
 * libunistring (u8_normalize, u8_casefold, unictype's White_Space and
 * Default_Ignorable_Code_Point properties) does the Unicode work. Every function here is pure
 * and thread-safe; results are malloc'ed, owned by the caller (free), never NULL (base/oom.h:
 * out of memory aborts). Input must be UTF-8 without NUL; a string that is not is kept byte for
 * byte (name_forms) or is blank (name_display). */
#ifndef BASE_NAMES_H
#define BASE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* The display form of s: trimmed, inner white space collapsed, NFC. "" when s holds nothing
 * but white space, or is not UTF-8. */
char *name_display(const char *s);

/* The key of s (any form: s need not be in display form). "" when s is blank (below). */
char *name_key(const char *s);

/* Is s blank: nothing but white space and invisible characters (or not UTF-8)? A member's
 * name must not be (adding, renaming: 400). */
bool name_blank(const char *s);

/* The display form and key a name is stored with (*display, *key: malloc'ed, caller frees).
 * Total, for names that come from files and tables: a blank name (only white space or
 * invisible characters, as a file may hold) is kept byte for byte and is its own key, which no
 * other key can equal (every other key starts with a visible character). */
void name_forms(const char *s, char **display, char **key);

/* The length in characters (code points) of the UTF-8 text s. */
size_t name_chars(const char *s);

#endif
