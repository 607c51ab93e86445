//! The four GembloQ variants: names, colours, players and starting squares.

use super::placements::{self, Placements};

/// A GembloQ variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GembloqVariant {
    /// Four colours, four players, a board of 1,564 triangles.
    Four,
    /// Two colours, two players, a board of 772 triangles.
    Two,
    /// Three colours, three players, a board of 1,156 triangles.
    Three,
    /// The four-colour board, two players (colours 1+3 against 2+4).
    TwoFour,
}

impl GembloqVariant {
    /// Every variant: tessera's name (as `--variant` takes it) and the reference engine's game
    /// name (`set_game`, the SGF `GM`).
    pub const ALL: [(&'static str, &'static str, GembloqVariant); 4] = [
        ("gembloq", "GembloQ", GembloqVariant::Four),
        ("gembloq_2", "GembloQ Two-Player", GembloqVariant::Two),
        ("gembloq_3", "GembloQ Three-Player", GembloqVariant::Three),
        (
            "gembloq_2_4",
            "GembloQ Two-Player Four-Color",
            GembloqVariant::TwoFour,
        ),
    ];

    /// The variant named by tessera's name or the game name (any case).
    pub fn parse(name: &str) -> Option<GembloqVariant> {
        Self::ALL
            .iter()
            .find(|(short, long, _)| {
                short.eq_ignore_ascii_case(name) || long.eq_ignore_ascii_case(name)
            })
            .map(|&(_, _, v)| v)
    }

    /// The board's placements.
    pub fn placements(self) -> &'static Placements {
        match self {
            GembloqVariant::Four | GembloqVariant::TwoFour => placements::four(),
            GembloqVariant::Two => placements::two(),
            GembloqVariant::Three => placements::three(),
        }
    }

    /// Number of colours.
    pub fn ncolours(self) -> usize {
        match self {
            GembloqVariant::Two => 2,
            GembloqVariant::Three => 3,
            GembloqVariant::Four | GembloqVariant::TwoFour => 4,
        }
    }

    /// Number of players.
    pub fn nplayers(self) -> usize {
        match self {
            GembloqVariant::Two | GembloqVariant::TwoFour => 2,
            GembloqVariant::Three => 3,
            GembloqVariant::Four => 4,
        }
    }

    /// The player colour `c` plays for.
    pub fn player_of(self, c: usize) -> usize {
        c % self.nplayers()
    }

    /// The colour names, in playing order.
    pub fn colour_names(self) -> &'static [&'static str] {
        match self {
            GembloqVariant::Two => &["blue", "green"],
            GembloqVariant::Three => &["blue", "yellow", "red"],
            GembloqVariant::Four | GembloqVariant::TwoFour => &["blue", "yellow", "red", "green"],
        }
    }

    /// The four triangles of colour `c`'s starting square, all of which its first piece
    /// covers: the bottom left one's column and row from the bottom.
    fn start_corner(self, c: usize) -> (i32, i32) {
        match self {
            GembloqVariant::Four | GembloqVariant::TwoFour => {
                [(1, 26), (53, 26), (53, 0), (1, 0)][c]
            }
            GembloqVariant::Two => [(13, 20), (29, 0)][c],
            GembloqVariant::Three => [(25, 0), (1, 18), (49, 18)][c],
        }
    }

    /// The triangles of colour `c`'s starting square.
    pub fn starts(self, c: usize) -> [u16; 4] {
        let geo = &self.placements().geo;
        let (x, y) = self.start_corner(c);
        [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| {
            geo.point(x + dx, y + dy)
                .expect("starting squares lie on the board")
        })
    }
}
