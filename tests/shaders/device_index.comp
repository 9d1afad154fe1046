#version 450
#extension GL_EXT_device_group : require
// Every invocation writes DeviceIndex + 100 + its index: a Kiln device group has one device, so
// DeviceIndex is 0 in every lane.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint values[]; };
void main() { values[gl_GlobalInvocationID.x] = uint(gl_DeviceIndex) + 100u + gl_GlobalInvocationID.x; }
