//! The search's constants in one place, so that the lab can tune them ([`SearchParams`]): how
//! far captures are followed, which replies are searched shallower first and by how much, how
//! much worse a move may be to leave a circle of positions, and when a new iteration is worth
//! starting. (How many moves an opponent that is not searched looks at first is not among
//! them: it changes how fast its move is found, never which.)

/// The search's tunable constants. [`SearchParams::HAND`] are the values set by hand and
/// measured one at a time; the lab tunes them on self-play (`qiguo-spsa`,
/// `docs/computer-players.md`) and keeps a set only when a sequential test says it is stronger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SearchParams {
    /// Captures followed beyond the nominal depth, at most.
    pub quiescence_depth: u32,
    /// Late quiet replies are searched shallower first from this depth on...
    pub lmr_depth: i32,
    /// ...after this many replies of the opponents...
    pub lmr_after: u32,
    /// ...by this many iterations (and fully only if that shows them hurting).
    pub lmr_reduction: i32,
    /// How much worse than the best a move may score to be played instead of one already
    /// played from the same position (breaking the circles of endings), in centipawns.
    pub repeat_margin: i32,
    /// The share of the next iteration's foreseen cost that must fit in what is left of the
    /// budget to start it, in thousandths.
    pub next_iteration_permille: u32,
}

impl SearchParams {
    /// The values set by hand.
    pub const HAND: SearchParams = SearchParams {
        quiescence_depth: 6,
        lmr_depth: 2,
        lmr_after: 2,
        lmr_reduction: 2,
        repeat_margin: 80,
        next_iteration_permille: 400,
    };

    /// The range each constant may take, by name, in the order of the fields: what a search
    /// can run with (a tuner keeps within them, a file outside them is refused).
    pub const RANGES: [(&'static str, i64, i64); 6] = [
        ("quiescence_depth", 0, 16),
        ("lmr_depth", 1, 12),
        ("lmr_after", 0, 64),
        ("lmr_reduction", 1, 4),
        ("repeat_margin", 0, 2_000),
        ("next_iteration_permille", 10, 4_000),
    ];

    /// The constants as numbers, in the order of [`SearchParams::RANGES`].
    pub fn values(&self) -> [i64; 6] {
        [
            i64::from(self.quiescence_depth),
            i64::from(self.lmr_depth),
            i64::from(self.lmr_after),
            i64::from(self.lmr_reduction),
            i64::from(self.repeat_margin),
            i64::from(self.next_iteration_permille),
        ]
    }

    /// The constants from numbers in the order of [`SearchParams::RANGES`], each brought within
    /// its range.
    pub fn from_values(values: [i64; 6]) -> SearchParams {
        let v: Vec<i64> = values
            .iter()
            .zip(SearchParams::RANGES)
            .map(|(&v, (_, low, high))| v.clamp(low, high))
            .collect();
        // Within the ranges above, every value fits its field.
        SearchParams {
            quiescence_depth: v[0] as u32,
            lmr_depth: v[1] as i32,
            lmr_after: v[2] as u32,
            lmr_reduction: v[3] as i32,
            repeat_margin: v[4] as i32,
            next_iteration_permille: v[5] as u32,
        }
    }

    /// The first constant outside its range, with the range: `None` when all are within.
    pub fn out_of_range(&self) -> Option<(&'static str, i64, (i64, i64))> {
        self.values()
            .into_iter()
            .zip(SearchParams::RANGES)
            .find(|(v, (_, low, high))| !(low..=high).contains(&v))
            .map(|(v, (name, low, high))| (name, v, (low, high)))
    }
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::HAND
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hand_set_constants_are_within_their_ranges_and_go_through_numbers() {
        assert_eq!(SearchParams::HAND.out_of_range(), None);
        assert_eq!(
            SearchParams::from_values(SearchParams::HAND.values()),
            SearchParams::HAND
        );
        // Out of range: brought within by `from_values`, named by `out_of_range`.
        let mut values = SearchParams::HAND.values();
        values[0] = 40;
        values[1] = 0;
        let p = SearchParams::from_values(values);
        assert_eq!((p.quiescence_depth, p.lmr_depth), (16, 1));
        let wild = SearchParams {
            lmr_reduction: 9,
            ..SearchParams::HAND
        };
        assert_eq!(wild.out_of_range(), Some(("lmr_reduction", 9, (1, 4))));
        // Every field has its range, by its own name.
        let json = serde_json::to_value(SearchParams::HAND).unwrap();
        let names: Vec<&str> = SearchParams::RANGES.iter().map(|r| r.0).collect();
        let mut fields: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        fields.sort_unstable();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(fields, sorted);
        for (name, value) in names.iter().zip(SearchParams::HAND.values()) {
            assert_eq!(json[name].as_i64(), Some(value), "{name}");
        }
    }
}
