//! Node-API's linker flags (undefined symbols resolved by the `node` process that loads it).
fn main() {
    napi_build::setup();
}
