//! Names renamed by first occurrence: the canonical text that deduplication
//! keys rest on (`saturate dedup`'s problem key, the equivalence tasks'
//! row keys), so that two problems differing only in the names of their
//! variables or atoms (words that start with an upper-case letter, the
//! TPTP convention) get the same key.

use std::collections::HashMap;

/// `text` with every name that starts with an upper-case ASCII letter
/// replaced by `<prefix><k>`, `k` its order of first occurrence in `names`
/// (which carries over between calls). A name is a maximal run of ASCII
/// letters, digits and `_` that starts with a letter or `_`; names that
/// start in lower case (constants, functions, keywords) are kept.
pub fn rename_capitalised(text: &str, prefix: char, names: &mut HashMap<String, usize>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut prev_ident = false;
    while let Some((i, c)) = chars.next() {
        if (c.is_ascii_alphabetic() || c == '_') && !prev_ident {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let word = &text[i..end];
            if c.is_ascii_uppercase() {
                let n = names.len();
                let k = *names.entry(word.to_string()).or_insert(n);
                out.push(prefix);
                out.push_str(&k.to_string());
            } else {
                out.push_str(word);
            }
            prev_ident = false;
            continue;
        }
        prev_ident = c.is_ascii_alphanumeric() || c == '_';
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalised_names_are_numbered_by_first_occurrence() {
        let mut names = HashMap::new();
        assert_eq!(
            rename_capitalised("p(X1, f(Y)) | q(X1, aB)", 'V', &mut names),
            "p(V0, f(V1)) | q(V0, aB)"
        );
        // The numbering carries over between calls.
        assert_eq!(rename_capitalised("r(Y, Z)", 'V', &mut names), "r(V1, V2)");
    }
}
