//! The instructions a network model's distributions are worked out with. [`Instructions::Portable`]
//! runs on any CPU; on x86-64, [`Instructions::Avx2`] is the same code compiled with AVX2,
//! POPCNT, BMI1 and BMI2 (a 16-lane row in one register, hardware population counts), chosen at
//! run time when the CPU has them, so the default build still runs on any x86-64. Integers only,
//! added in the same order: both give the same frequencies, bit for bit (the pinned
//! probabilities of every shipped network, `tests/it/move_models.rs`, are checked under each
//! instruction set this CPU runs). `SHANNON_CODEC_INSTRUCTIONS=portable` picks the portable code
//! on any CPU, to compare them. This file says which instructions there are and which this CPU
//! has; the code each is compiled into is in `scoring.rs`.

/// The instruction sets a network model's distributions can be worked out with, slowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instructions {
    /// Any CPU.
    Portable,
    /// AVX2, POPCNT, BMI1 and BMI2.
    Avx2,
}

impl Instructions {
    /// The environment variable that overrules [`Instructions::fastest`].
    pub const VARIABLE: &str = "SHANNON_CODEC_INSTRUCTIONS";

    /// Every one, slowest first.
    pub const ALL: [Instructions; 2] = [Instructions::Portable, Instructions::Avx2];

    /// Every one this CPU runs, slowest first.
    pub fn available() -> Vec<Instructions> {
        let mut found = vec![Instructions::Portable];
        #[cfg(target_arch = "x86_64")]
        if Avx2::detect().is_some() {
            found.push(Instructions::Avx2);
        }
        found
    }

    /// The fastest on this CPU.
    pub fn fastest() -> Instructions {
        *Instructions::available()
            .last()
            .unwrap_or(&Instructions::Portable)
    }

    /// A name for tables and figures, and for [`Instructions::VARIABLE`].
    pub fn name(self) -> &'static str {
        match self {
            Instructions::Portable => "portable",
            Instructions::Avx2 => "avx2",
        }
    }

    /// The one with this [`name`](Instructions::name).
    pub fn from_name(name: &str) -> Option<Instructions> {
        Instructions::ALL.into_iter().find(|i| i.name() == name)
    }

    /// What the network models use: the fastest, unless [`Instructions::VARIABLE`] names another this CPU
    /// runs (to compare them); a name unknown or not available here is refused with a warning.
    /// Read once.
    pub fn chosen() -> Instructions {
        static CHOSEN: std::sync::OnceLock<Instructions> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let fastest = Instructions::fastest();
            const VARIABLE: &str = Instructions::VARIABLE;
            let Ok(requested) = std::env::var(VARIABLE) else {
                return fastest;
            };
            match Instructions::from_name(&requested) {
                Some(i) if Instructions::available().contains(&i) => i,
                Some(_) => {
                    log::warn!(
                        "{VARIABLE}={requested}: this CPU lacks them; coding with {}",
                        fastest.name()
                    );
                    fastest
                }
                None => {
                    log::warn!(
                        "{VARIABLE}={requested}: not one of portable, avx2; coding with {}",
                        fastest.name()
                    );
                    fastest
                }
            }
        })
    }
}

/// Proof that this CPU has AVX2, POPCNT, BMI1 and BMI2: only [`Avx2::detect`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The proof, when the CPU running this has the instructions.
    pub(super) fn detect() -> Option<Avx2> {
        let found = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        found.then_some(Avx2(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each instruction set's name reads back to it, an unknown name to none, and what the
    /// models use is one this CPU runs, the portable code always among them.
    #[test]
    fn names_read_back_and_the_choice_is_available() {
        for instructions in Instructions::ALL {
            assert_eq!(
                Instructions::from_name(instructions.name()),
                Some(instructions)
            );
        }
        assert_eq!(Instructions::from_name("sse9"), None);
        let available = Instructions::available();
        assert_eq!(available[0], Instructions::Portable);
        assert!(available.contains(&Instructions::chosen()));
        assert!(available.contains(&Instructions::fastest()));
    }
}
