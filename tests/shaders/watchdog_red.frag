#version 450
// Red (device_loss_test.cpp: the fragment stage behind an endless vertex shader).
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0, 0.0, 0.0, 1.0); }
