// The stones' faces: one material for every stone, its face picked per stone. Each stone's
// mesh tag is the layer of the face texture array holding its kingdom's piece, so every stone
// on the board (one mesh, one material) is drawn as one batch of instances.

#import bevy_pbr::{
    forward_io::{FragmentOutput, VertexOutput},
    mesh_functions::get_tag,
    pbr_fragment::pbr_input_from_standard_material,
    pbr_functions::{alpha_discard, apply_pbr_lighting, main_pass_post_lighting_processing},
}

@group(#{MATERIAL_BIND_GROUP}) @binding(100) var faces: texture_2d_array<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(101) var faces_sampler: sampler;

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    var pbr_input = pbr_input_from_standard_material(in, is_front);
    let face = textureSample(faces, faces_sampler, in.uv, get_tag(in.instance_index));
    pbr_input.material.base_color = alpha_discard(pbr_input.material, pbr_input.material.base_color * face);
    var out: FragmentOutput;
    out.color = apply_pbr_lighting(pbr_input);
    out.color = main_pass_post_lighting_processing(pbr_input, out.color);
    return out;
}
