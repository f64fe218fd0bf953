//! What the lab's commands share on the command line: a wrong option or value said in one line
//! on standard error, with the exit code 2; `--help` and `--version` answered.

use std::process::ExitCode;

/// Says what is wrong in one line on standard error, as `program`, and fails.
pub fn refuse(program: &str, message: &str) -> ExitCode {
    eprintln!("{program}: {message}");
    ExitCode::from(2)
}

/// The command line read as `A`; else the code to exit with: success after `--help` or
/// `--version`, or a refusal with clap's message alone (without its usage and hints).
pub fn parse<A: clap::Parser>(program: &str) -> Result<A, ExitCode> {
    match A::try_parse() {
        Ok(args) => Ok(args),
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            Err(ExitCode::SUCCESS)
        }
        Err(e) => {
            let text = e.render().to_string();
            let line = text.lines().next().unwrap_or_default();
            Err(refuse(
                program,
                line.strip_prefix("error: ").unwrap_or(line),
            ))
        }
    }
}
