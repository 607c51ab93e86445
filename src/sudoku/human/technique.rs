//! The techniques, in the order the solver tries them, with their scores and levels.
//!
//! Order, base scores and levels follow HoDoKu's published defaults, so the ratings compare with
//! HoDoKu's; the scores of a path add up, and a puzzle's level is its hardest technique's level,
//! raised while the total score is above that level's ceiling.
use std::fmt;
use std::str::FromStr;

/// A difficulty level, as HoDoKu names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Locked candidates, pairs and triples.
    Medium,
    /// Quads, fish, wings, single-digit patterns, coloring, uniqueness.
    Hard,
    /// Finned fish of size 3 and 4, chains.
    Unfair,
    /// Beyond the techniques: brute force.
    Extreme,
}

impl Level {
    /// All levels, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ];

    /// The highest total score a puzzle of this level may have.
    pub fn max_score(self) -> u32 {
        match self {
            Level::Easy => 800,
            Level::Medium => 1000,
            Level::Hard => 1600,
            Level::Unfair => 1800,
            Level::Extreme => u32::MAX,
        }
    }

    /// The level after this one (Extreme stays).
    pub fn next(self) -> Level {
        match self {
            Level::Easy => Level::Medium,
            Level::Medium => Level::Hard,
            Level::Hard => Level::Unfair,
            _ => Level::Extreme,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        })
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string() == s)
            .ok_or_else(|| {
                format!("unknown level '{s}': expected easy, medium, hard, unfair or extreme")
            })
    }
}

macro_rules! techniques {
    ($($variant:ident => $name:literal, $score:literal, $level:ident;)*) => {
        /// A solving technique. The variants are listed in the order the solver tries them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Technique {
            $(#[doc = $name] $variant,)*
        }

        impl Technique {
            /// Every technique, in the order the solver tries them.
            pub const ALL: &[Technique] = &[$(Technique::$variant,)*];

            /// The name shown to people, e.g. `Hidden Single`.
            pub fn name(self) -> &'static str {
                match self { $(Technique::$variant => $name,)* }
            }

            /// Points added to the score each time the technique is used.
            pub fn score(self) -> u32 {
                match self { $(Technique::$variant => $score,)* }
            }

            /// The level of a puzzle that needs it.
            pub fn level(self) -> Level {
                match self { $(Technique::$variant => Level::$level,)* }
            }
        }
    };
}

techniques! {
    FullHouse => "Full House", 4, Easy;
    NakedSingle => "Naked Single", 4, Easy;
    HiddenSingle => "Hidden Single", 14, Easy;
    LockedPair => "Locked Pair", 40, Medium;
    LockedTriple => "Locked Triple", 60, Medium;
    Pointing => "Locked Candidates Type 1 (Pointing)", 50, Medium;
    Claiming => "Locked Candidates Type 2 (Claiming)", 50, Medium;
    NakedPair => "Naked Pair", 60, Medium;
    NakedTriple => "Naked Triple", 80, Medium;
    HiddenPair => "Hidden Pair", 70, Medium;
    HiddenTriple => "Hidden Triple", 100, Medium;
    NakedQuad => "Naked Quadruple", 120, Hard;
    HiddenQuad => "Hidden Quadruple", 150, Hard;
    XWing => "X-Wing", 140, Hard;
    Swordfish => "Swordfish", 150, Hard;
    Jellyfish => "Jellyfish", 160, Hard;
    BugPlusOne => "Bivalue Universal Grave + 1", 100, Hard;
    Skyscraper => "Skyscraper", 130, Hard;
    TwoStringKite => "2-String Kite", 150, Hard;
    TurbotFish => "Turbot Fish", 120, Hard;
    EmptyRectangle => "Empty Rectangle", 120, Hard;
    WWing => "W-Wing", 150, Hard;
    XyWing => "XY-Wing", 160, Hard;
    XyzWing => "XYZ-Wing", 180, Hard;
    UniqueRectangle1 => "Uniqueness Test 1", 100, Hard;
    UniqueRectangle2 => "Uniqueness Test 2", 100, Hard;
    FinnedXWing => "Finned X-Wing", 130, Hard;
    SashimiXWing => "Sashimi X-Wing", 150, Hard;
    FinnedSwordfish => "Finned Swordfish", 200, Unfair;
    SashimiSwordfish => "Sashimi Swordfish", 240, Unfair;
    FinnedJellyfish => "Finned Jellyfish", 250, Unfair;
    SashimiJellyfish => "Sashimi Jellyfish", 260, Unfair;
    SimpleColorsTrap => "Simple Colors Trap", 150, Hard;
    SimpleColorsWrap => "Simple Colors Wrap", 150, Hard;
    XChain => "X-Chain", 260, Unfair;
    XyChain => "XY-Chain", 260, Unfair;
    Aic => "AIC", 280, Unfair;
    BruteForce => "Brute Force", 10000, Extreme;
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_order() {
        assert_eq!("unfair".parse::<Level>(), Ok(Level::Unfair));
        assert!("fiendish".parse::<Level>().is_err());
        assert!(Technique::XWing.level() > Technique::NakedPair.level());
        assert_eq!(Technique::ALL.first(), Some(&Technique::FullHouse));
        assert_eq!(Technique::ALL.last(), Some(&Technique::BruteForce));
    }
}
