//! engines.toml loading on arbitrary text: a configuration or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shannon::arena::config::Config;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(config) = Config::parse(&text, "fuzz") {
        for engine in &config.engines {
            let _ = engine.option_values();
            let _ = config
                .engine(&engine.name)
                .expect("a listed engine is found");
        }
    }
});
