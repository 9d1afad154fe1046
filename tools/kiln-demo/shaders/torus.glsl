// The torus drawn by the mesh path (torus.task, torus.mesh) and by the vertex path (torus.vert)
// alike: kBands bands around the ring, each kSides quads (2 triangles each) around the tube.
// Both paths compute every vertex with torus_vertex(), so they draw the same triangles.
const uint kBands = 64;
const uint kSides = 32;
const float kRingRadius = 1.5;
const float kTubeRadius = 0.45;
const vec3 kCentre = vec3(0.0, 2.6, 0.0);

struct TorusVertex {
  vec3 position;
  vec3 normal;
};

// The ring spins about its axis, which is tilted 35 degrees from vertical.
mat3 torus_orientation(float time) {
  const float spin = 0.6 * time, tilt = radians(35.0);
  const mat3 about_y = mat3(cos(spin), 0.0, -sin(spin), 0.0, 1.0, 0.0, sin(spin), 0.0, cos(spin));
  const mat3 about_x = mat3(1.0, 0.0, 0.0, 0.0, cos(tilt), sin(tilt), 0.0, -sin(tilt), cos(tilt));
  return about_x * about_y;
}

// Vertex (band edge `ring` in 0..kBands, tube step `side` in 0..kSides) of the torus at `time`.
TorusVertex torus_vertex(uint ring, uint side, float time) {
  const float around = 6.28318530718 * float(ring % kBands) / float(kBands);
  const float tube = 6.28318530718 * float(side % kSides) / float(kSides);
  const vec3 ring_direction = vec3(cos(around), 0.0, sin(around));
  const vec3 normal = cos(tube) * ring_direction + vec3(0.0, sin(tube), 0.0);
  const mat3 orientation = torus_orientation(time);
  TorusVertex v;
  v.position = kCentre + orientation * (kRingRadius * ring_direction + kTubeRadius * normal);
  v.normal = orientation * normal;
  return v;
}

// The corners of triangle `t` (0 .. 2 * kSides - 1) of a band, as (ring offset 0/1, side) pairs:
// quad `t / 2` split along its diagonal.
uvec2 band_triangle_corner(uint t, uint corner) {
  const uint side = t / 2;
  const uvec2 first[3] = uvec2[](uvec2(0, 0), uvec2(0, 1), uvec2(1, 0));
  const uvec2 second[3] = uvec2[](uvec2(1, 0), uvec2(0, 1), uvec2(1, 1));
  const uvec2 c = (t % 2 == 0) ? first[corner] : second[corner];
  return uvec2(c.x, side + c.y);
}
