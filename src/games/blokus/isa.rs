//! The instruction set of the search's hot loops: on x86-64, besides the baseline build, the
//! playout, the expansion and the descent are compiled a second time for x86-64-v3 (AVX2,
//! BMI1/2, LZCNT, POPCNT, FMA, MOVBE: Intel from Haswell, AMD from Zen), and a CPU that has
//! those runs that copy (each hot function is a [`twin!`]: a dispatch, a `_v3` copy and the
//! `_body` they share). Both copies compute the same results (neither may contract
//! floating-point operations), so a seed plays the same games on any CPU.

#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

/// Defines a hot function as a dispatch to its x86-64-v3 copy where the CPU has the features
/// (see [`v3`]), else to the baseline code; both run `BODY`, an `#[inline(always)]` function of
/// the same parameters that holds the code. Inside an `impl` for a method, or at module level:
/// `twin! { /// docs
/// pub fn NAME / NAME_v3 = BODY(&mut self, a: A) -> R }` (without `&mut self` for a free
/// function).
macro_rules! twin {
    ($(#[$attr:meta])* $vis:vis fn $name:ident / $v3:ident = $body:ident
        (&mut $self:ident $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?) => {
        $(#[$attr])*
        $vis fn $name(&mut $self $(, $arg: $ty)*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if $crate::games::blokus::isa::v3() {
                // SAFETY: `isa::v3` found every feature of the copy on this CPU.
                return unsafe { $self.$v3($($arg),*) };
            }
            $self.$body($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
        fn $v3(&mut $self $(, $arg: $ty)*) $(-> $ret)? {
            $self.$body($($arg),*)
        }
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident / $v3:ident = $body:ident
        ($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?) => {
        $(#[$attr])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if $crate::games::blokus::isa::v3() {
                // SAFETY: `isa::v3` found every feature of the copy on this CPU.
                return unsafe { $v3($($arg),*) };
            }
            $body($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
        fn $v3($($arg: $ty),*) $(-> $ret)? {
            $body($($arg),*)
        }
    };
}
pub(crate) use twin;

/// Whether this CPU runs the x86-64-v3 copies (found out once).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn v3() -> bool {
    #[cfg(test)]
    if BASELINE.get() {
        return false;
    }
    static V3: OnceLock<bool> = OnceLock::new();
    *V3.get_or_init(detect)
}

#[cfg(all(test, target_arch = "x86_64"))]
thread_local! {
    /// Tests: whether this thread runs the baseline copies whatever the CPU.
    static BASELINE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the CPU has every feature the x86-64-v3 copies are compiled with.
#[cfg(target_arch = "x86_64")]
fn detect() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("fma")
        && std::is_x86_feature_detected!("movbe")
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::games::blokus::board::{Board, MoveGen, Variant};
    use crate::games::blokus::mcts::Mcts;
    use crate::games::blokus::rng::Rng;

    /// The root's moves, visits and values after `playouts` playouts from a position a few
    /// random moves into a game of `variant`.
    fn search(variant: Variant, playouts: usize) -> Vec<(u16, u32, f32)> {
        let mut b = Board::new(variant);
        let t = b.tables();
        let (mut rng, mut mg, mut moves) = (Rng::new(5), MoveGen::new(t), Vec::new());
        for _ in 0..2 * variant.ncolours() {
            let Some(c) = b.skip_to_mover() else { break };
            moves.clear();
            b.gen_moves(c, &mut mg, &mut moves);
            b.play(c, moves[rng.below(moves.len())]);
        }
        let mut m = Mcts::new(&b, 3);
        for _ in 0..playouts {
            m.run_once();
        }
        m.root_stats()
    }

    /// The x86-64-v3 copies (where this CPU has them) and the baseline ones search alike: the
    /// same visits and the same values, bit for bit.
    #[test]
    fn both_copies_search_alike() {
        for variant in [Variant::Duo, Variant::Classic, Variant::Trigon] {
            let fast = search(variant, 400);
            BASELINE.set(true);
            let baseline = search(variant, 400);
            BASELINE.set(false);
            assert_eq!(fast.len(), baseline.len(), "{variant:?}");
            for (a, b) in fast.iter().zip(&baseline) {
                assert_eq!((a.0, a.1), (b.0, b.1), "{variant:?}");
                assert_eq!(a.2.to_bits(), b.2.to_bits(), "{variant:?}");
            }
            assert!(fast.iter().map(|s| s.1).sum::<u32>() > 0);
        }
    }
}
