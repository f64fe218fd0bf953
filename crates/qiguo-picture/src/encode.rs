//! Pictures written as PNG.

use crate::canvas::Canvas;

/// Why a picture could not be written.
#[derive(Debug, thiserror::Error)]
#[error("the picture could not be written: {0}")]
pub struct EncodeError(#[from] png::EncodingError);

/// `canvas` as an opaque PNG (its alpha dropped: RGB, eight bits a channel).
pub fn png(canvas: &Canvas) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    {
        let mut encoder =
            png::Encoder::new(&mut out, canvas.width() as u32, canvas.height() as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        let rgb: Vec<u8> = canvas
            .pixels()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        writer.write_image_data(&rgb)?;
        writer.finish()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_reads_back_as_drawn() {
        let mut c = Canvas::sized(30, 20, [10, 20, 30, 255]);
        c.set(29, 19, [200, 100, 50, 255]);
        let bytes = png(&c).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (30, 20));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(&buf[..3], &[10, 20, 30]);
        let last = (19 * 30 + 29) * 3;
        assert_eq!(&buf[last..last + 3], &[200, 100, 50]);
    }
}
