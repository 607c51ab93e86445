//! The instruction set of a game's hot loops: on x86-64, besides the baseline build, a hot
//! function declared with [`twin!`] is compiled a second time for x86-64-v3 (AVX2, BMI1/2,
//! LZCNT, POPCNT, FMA, MOVBE: Intel from Haswell, AMD from Zen), and a CPU that has those runs
//! that copy (a dispatch, a `_v3` copy and the `_body` they share). Both copies compute the
//! same results (neither may contract floating-point operations), so a seed plays the same
//! games on any CPU. Blokus's playout, expansion and descent use it.

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
            if $crate::isa::v3() {
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
            if $crate::isa::v3() {
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

/// Tests: runs `f` with this thread on the baseline copies whatever the CPU.
#[cfg(all(test, target_arch = "x86_64"))]
pub fn baseline_only<R>(f: impl FnOnce() -> R) -> R {
    BASELINE.set(true);
    let r = f();
    BASELINE.set(false);
    r
}
