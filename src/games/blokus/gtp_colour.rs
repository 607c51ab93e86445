//! The colour argument of GTP commands (`play`, `genmove`, `all_legal`), shared by the square,
//! triangle and segment boards' front end (`gtp.rs`) and GembloQ's (`gembloq/gtp.rs`).

/// The colour a GTP colour argument names in a game of `ncolours` colours: `b`/`w` (or
/// `black`/`white`, `blue`/`green`) with two, `1`..`4` (or the colour names) otherwise.
pub fn parse_colour(arg: Option<&str>, ncolours: usize) -> Result<usize, String> {
    let arg = arg.ok_or("missing colour argument")?;
    let s = arg.to_ascii_lowercase();
    let c = if ncolours == 2 {
        match s.as_str() {
            "b" | "black" | "blue" => Some(0),
            "w" | "white" | "green" => Some(1),
            _ => None,
        }
    } else {
        match s.as_str() {
            "1" | "blue" => Some(0),
            "2" | "yellow" => Some(1),
            "3" | "red" => Some(2),
            "4" | "green" => Some(3),
            _ => None,
        }
    };
    c.filter(|&c| c < ncolours)
        .ok_or_else(|| format!("invalid color argument '{arg}'"))
}
