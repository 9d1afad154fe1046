#version 450
// The Vulkan memory model (vulkanMemoryModel, vulkanMemoryModelDeviceScope): message passing inside
// workgroups of 64 invocations (several subgroups at every SIMD width) through shared memory,
// coherent and volatile buffers, with scoped atomics and barriers carrying explicit semantics.
// Invocation l of workgroup g writes results[64 g + l] = the payload invocation 63 - l published,
// and counts itself into counters[g] (an acquire-release atomic at device scope).
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent buffer Payload { uint payload[]; };
layout(std430, binding = 1) buffer Flags { uint flags[]; };
layout(std430, binding = 2) buffer Results { uint results[]; };
layout(std430, binding = 3) volatile buffer Counters { uint counters[]; };
shared uint shared_data[64];

void main() {
  const uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x, base = g * 64;
  shared_data[l] = l * 3 + g;
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
  const uint neighbour = shared_data[63 - l];

  // Publish: a coherent (MakePointerAvailable) payload store, then a release flag store.
  payload[base + l] = neighbour + 1000;
  atomicStore(flags[base + l], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
              gl_SemanticsRelease | gl_SemanticsMakeAvailable);
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  // Consume the mirror invocation's message: an acquire flag load, then a coherent (MakePointerVisible) load.
  const uint flag = atomicLoad(flags[base + 63 - l], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                               gl_SemanticsAcquire | gl_SemanticsMakeVisible);
  const uint message = flag == 1u ? payload[base + 63 - l] : 0xFFFFFFFFu;
  memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  results[base + l] = message;
  atomicAdd(counters[g], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  // Volatile accesses (memory operands Volatile with MakePointerVisible/Available); adding 0 keeps
  // the racing invocations from disagreeing on the value.
  counters[gl_NumWorkGroups.x + g] += 0u;
}
