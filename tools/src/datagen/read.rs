//! Reading data files of either format: a binary file is known by its
//! header ([`super::binary`]), anything else is read as text
//! ([`super::format`]).

use super::binary::{MAGIC, read_binary, read_magic};
use super::format::{ReadSummary, Sample, read_from};
use std::io::Read;
use std::path::Path;

/// Reads data files in order, text or binary ([`super::binary`], known by
/// its header), handing each sample to `each`.
pub fn read_files_with<P: AsRef<Path>>(
    paths: &[P],
    each: &mut dyn FnMut(Sample),
) -> Result<ReadSummary, String> {
    let mut summary = ReadSummary::default();
    for path in paths {
        let path = path.as_ref();
        let name = path.display().to_string();
        let mut file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        // A binary file starts with its header's magic; text never does.
        let magic = read_magic(&mut file).map_err(|e| format!("{name}: {e}"))?;
        let binary = magic == MAGIC;
        let input = std::io::Cursor::new(magic).chain(file);
        if binary {
            read_binary(input, &name, each)?;
        } else if read_from(input, &name, each)? {
            summary.truncated.push(name);
        }
    }
    Ok(summary)
}

/// Reads data files in order into one list (a cut-short last line of a
/// file is skipped); an error names the file and the line.
pub fn read_files<P: AsRef<Path>>(paths: &[P]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    read_files_with(paths, &mut |s| out.push(s))?;
    Ok(out)
}
