//! `pegsol`: maps the outcome of [`pegsol::cli::run`] to an exit code. Errors are one line
//! on stderr; a refused allocation too ([`pegsol::binary_hooks`]).

pegsol::binary_hooks!();

fn main() {
    let code = match pegsol::cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(e) => {
            e.report(None);
            e.exit_code()
        }
    };
    std::process::exit(code);
}
