// Code generated for BenchmarkCallManyCapabilities; DO NOT EDIT.

package mcpagent_test

import "github.com/foldagent/foldagent/agent"

// 1,000 Message types, one per capability (a contract exposes each
// Message type once).
type (
	n0000 struct {
		Title string `json:"title"`
	}
	n0001 struct {
		Title string `json:"title"`
	}
	n0002 struct {
		Title string `json:"title"`
	}
	n0003 struct {
		Title string `json:"title"`
	}
	n0004 struct {
		Title string `json:"title"`
	}
	n0005 struct {
		Title string `json:"title"`
	}
	n0006 struct {
		Title string `json:"title"`
	}
	n0007 struct {
		Title string `json:"title"`
	}
	n0008 struct {
		Title string `json:"title"`
	}
	n0009 struct {
		Title string `json:"title"`
	}
	n0010 struct {
		Title string `json:"title"`
	}
	n0011 struct {
		Title string `json:"title"`
	}
	n0012 struct {
		Title string `json:"title"`
	}
	n0013 struct {
		Title string `json:"title"`
	}
	n0014 struct {
		Title string `json:"title"`
	}
	n0015 struct {
		Title string `json:"title"`
	}
	n0016 struct {
		Title string `json:"title"`
	}
	n0017 struct {
		Title string `json:"title"`
	}
	n0018 struct {
		Title string `json:"title"`
	}
	n0019 struct {
		Title string `json:"title"`
	}
	n0020 struct {
		Title string `json:"title"`
	}
	n0021 struct {
		Title string `json:"title"`
	}
	n0022 struct {
		Title string `json:"title"`
	}
	n0023 struct {
		Title string `json:"title"`
	}
	n0024 struct {
		Title string `json:"title"`
	}
	n0025 struct {
		Title string `json:"title"`
	}
	n0026 struct {
		Title string `json:"title"`
	}
	n0027 struct {
		Title string `json:"title"`
	}
	n0028 struct {
		Title string `json:"title"`
	}
	n0029 struct {
		Title string `json:"title"`
	}
	n0030 struct {
		Title string `json:"title"`
	}
	n0031 struct {
		Title string `json:"title"`
	}
	n0032 struct {
		Title string `json:"title"`
	}
	n0033 struct {
		Title string `json:"title"`
	}
	n0034 struct {
		Title string `json:"title"`
	}
	n0035 struct {
		Title string `json:"title"`
	}
	n0036 struct {
		Title string `json:"title"`
	}
	n0037 struct {
		Title string `json:"title"`
	}
	n0038 struct {
		Title string `json:"title"`
	}
	n0039 struct {
		Title string `json:"title"`
	}
	n0040 struct {
		Title string `json:"title"`
	}
	n0041 struct {
		Title string `json:"title"`
	}
	n0042 struct {
		Title string `json:"title"`
	}
	n0043 struct {
		Title string `json:"title"`
	}
	n0044 struct {
		Title string `json:"title"`
	}
	n0045 struct {
		Title string `json:"title"`
	}
	n0046 struct {
		Title string `json:"title"`
	}
	n0047 struct {
		Title string `json:"title"`
	}
	n0048 struct {
		Title string `json:"title"`
	}
	n0049 struct {
		Title string `json:"title"`
	}
	n0050 struct {
		Title string `json:"title"`
	}
	n0051 struct {
		Title string `json:"title"`
	}
	n0052 struct {
		Title string `json:"title"`
	}
	n0053 struct {
		Title string `json:"title"`
	}
	n0054 struct {
		Title string `json:"title"`
	}
	n0055 struct {
		Title string `json:"title"`
	}
	n0056 struct {
		Title string `json:"title"`
	}
	n0057 struct {
		Title string `json:"title"`
	}
	n0058 struct {
		Title string `json:"title"`
	}
	n0059 struct {
		Title string `json:"title"`
	}
	n0060 struct {
		Title string `json:"title"`
	}
	n0061 struct {
		Title string `json:"title"`
	}
	n0062 struct {
		Title string `json:"title"`
	}
	n0063 struct {
		Title string `json:"title"`
	}
	n0064 struct {
		Title string `json:"title"`
	}
	n0065 struct {
		Title string `json:"title"`
	}
	n0066 struct {
		Title string `json:"title"`
	}
	n0067 struct {
		Title string `json:"title"`
	}
	n0068 struct {
		Title string `json:"title"`
	}
	n0069 struct {
		Title string `json:"title"`
	}
	n0070 struct {
		Title string `json:"title"`
	}
	n0071 struct {
		Title string `json:"title"`
	}
	n0072 struct {
		Title string `json:"title"`
	}
	n0073 struct {
		Title string `json:"title"`
	}
	n0074 struct {
		Title string `json:"title"`
	}
	n0075 struct {
		Title string `json:"title"`
	}
	n0076 struct {
		Title string `json:"title"`
	}
	n0077 struct {
		Title string `json:"title"`
	}
	n0078 struct {
		Title string `json:"title"`
	}
	n0079 struct {
		Title string `json:"title"`
	}
	n0080 struct {
		Title string `json:"title"`
	}
	n0081 struct {
		Title string `json:"title"`
	}
	n0082 struct {
		Title string `json:"title"`
	}
	n0083 struct {
		Title string `json:"title"`
	}
	n0084 struct {
		Title string `json:"title"`
	}
	n0085 struct {
		Title string `json:"title"`
	}
	n0086 struct {
		Title string `json:"title"`
	}
	n0087 struct {
		Title string `json:"title"`
	}
	n0088 struct {
		Title string `json:"title"`
	}
	n0089 struct {
		Title string `json:"title"`
	}
	n0090 struct {
		Title string `json:"title"`
	}
	n0091 struct {
		Title string `json:"title"`
	}
	n0092 struct {
		Title string `json:"title"`
	}
	n0093 struct {
		Title string `json:"title"`
	}
	n0094 struct {
		Title string `json:"title"`
	}
	n0095 struct {
		Title string `json:"title"`
	}
	n0096 struct {
		Title string `json:"title"`
	}
	n0097 struct {
		Title string `json:"title"`
	}
	n0098 struct {
		Title string `json:"title"`
	}
	n0099 struct {
		Title string `json:"title"`
	}
	n0100 struct {
		Title string `json:"title"`
	}
	n0101 struct {
		Title string `json:"title"`
	}
	n0102 struct {
		Title string `json:"title"`
	}
	n0103 struct {
		Title string `json:"title"`
	}
	n0104 struct {
		Title string `json:"title"`
	}
	n0105 struct {
		Title string `json:"title"`
	}
	n0106 struct {
		Title string `json:"title"`
	}
	n0107 struct {
		Title string `json:"title"`
	}
	n0108 struct {
		Title string `json:"title"`
	}
	n0109 struct {
		Title string `json:"title"`
	}
	n0110 struct {
		Title string `json:"title"`
	}
	n0111 struct {
		Title string `json:"title"`
	}
	n0112 struct {
		Title string `json:"title"`
	}
	n0113 struct {
		Title string `json:"title"`
	}
	n0114 struct {
		Title string `json:"title"`
	}
	n0115 struct {
		Title string `json:"title"`
	}
	n0116 struct {
		Title string `json:"title"`
	}
	n0117 struct {
		Title string `json:"title"`
	}
	n0118 struct {
		Title string `json:"title"`
	}
	n0119 struct {
		Title string `json:"title"`
	}
	n0120 struct {
		Title string `json:"title"`
	}
	n0121 struct {
		Title string `json:"title"`
	}
	n0122 struct {
		Title string `json:"title"`
	}
	n0123 struct {
		Title string `json:"title"`
	}
	n0124 struct {
		Title string `json:"title"`
	}
	n0125 struct {
		Title string `json:"title"`
	}
	n0126 struct {
		Title string `json:"title"`
	}
	n0127 struct {
		Title string `json:"title"`
	}
	n0128 struct {
		Title string `json:"title"`
	}
	n0129 struct {
		Title string `json:"title"`
	}
	n0130 struct {
		Title string `json:"title"`
	}
	n0131 struct {
		Title string `json:"title"`
	}
	n0132 struct {
		Title string `json:"title"`
	}
	n0133 struct {
		Title string `json:"title"`
	}
	n0134 struct {
		Title string `json:"title"`
	}
	n0135 struct {
		Title string `json:"title"`
	}
	n0136 struct {
		Title string `json:"title"`
	}
	n0137 struct {
		Title string `json:"title"`
	}
	n0138 struct {
		Title string `json:"title"`
	}
	n0139 struct {
		Title string `json:"title"`
	}
	n0140 struct {
		Title string `json:"title"`
	}
	n0141 struct {
		Title string `json:"title"`
	}
	n0142 struct {
		Title string `json:"title"`
	}
	n0143 struct {
		Title string `json:"title"`
	}
	n0144 struct {
		Title string `json:"title"`
	}
	n0145 struct {
		Title string `json:"title"`
	}
	n0146 struct {
		Title string `json:"title"`
	}
	n0147 struct {
		Title string `json:"title"`
	}
	n0148 struct {
		Title string `json:"title"`
	}
	n0149 struct {
		Title string `json:"title"`
	}
	n0150 struct {
		Title string `json:"title"`
	}
	n0151 struct {
		Title string `json:"title"`
	}
	n0152 struct {
		Title string `json:"title"`
	}
	n0153 struct {
		Title string `json:"title"`
	}
	n0154 struct {
		Title string `json:"title"`
	}
	n0155 struct {
		Title string `json:"title"`
	}
	n0156 struct {
		Title string `json:"title"`
	}
	n0157 struct {
		Title string `json:"title"`
	}
	n0158 struct {
		Title string `json:"title"`
	}
	n0159 struct {
		Title string `json:"title"`
	}
	n0160 struct {
		Title string `json:"title"`
	}
	n0161 struct {
		Title string `json:"title"`
	}
	n0162 struct {
		Title string `json:"title"`
	}
	n0163 struct {
		Title string `json:"title"`
	}
	n0164 struct {
		Title string `json:"title"`
	}
	n0165 struct {
		Title string `json:"title"`
	}
	n0166 struct {
		Title string `json:"title"`
	}
	n0167 struct {
		Title string `json:"title"`
	}
	n0168 struct {
		Title string `json:"title"`
	}
	n0169 struct {
		Title string `json:"title"`
	}
	n0170 struct {
		Title string `json:"title"`
	}
	n0171 struct {
		Title string `json:"title"`
	}
	n0172 struct {
		Title string `json:"title"`
	}
	n0173 struct {
		Title string `json:"title"`
	}
	n0174 struct {
		Title string `json:"title"`
	}
	n0175 struct {
		Title string `json:"title"`
	}
	n0176 struct {
		Title string `json:"title"`
	}
	n0177 struct {
		Title string `json:"title"`
	}
	n0178 struct {
		Title string `json:"title"`
	}
	n0179 struct {
		Title string `json:"title"`
	}
	n0180 struct {
		Title string `json:"title"`
	}
	n0181 struct {
		Title string `json:"title"`
	}
	n0182 struct {
		Title string `json:"title"`
	}
	n0183 struct {
		Title string `json:"title"`
	}
	n0184 struct {
		Title string `json:"title"`
	}
	n0185 struct {
		Title string `json:"title"`
	}
	n0186 struct {
		Title string `json:"title"`
	}
	n0187 struct {
		Title string `json:"title"`
	}
	n0188 struct {
		Title string `json:"title"`
	}
	n0189 struct {
		Title string `json:"title"`
	}
	n0190 struct {
		Title string `json:"title"`
	}
	n0191 struct {
		Title string `json:"title"`
	}
	n0192 struct {
		Title string `json:"title"`
	}
	n0193 struct {
		Title string `json:"title"`
	}
	n0194 struct {
		Title string `json:"title"`
	}
	n0195 struct {
		Title string `json:"title"`
	}
	n0196 struct {
		Title string `json:"title"`
	}
	n0197 struct {
		Title string `json:"title"`
	}
	n0198 struct {
		Title string `json:"title"`
	}
	n0199 struct {
		Title string `json:"title"`
	}
	n0200 struct {
		Title string `json:"title"`
	}
	n0201 struct {
		Title string `json:"title"`
	}
	n0202 struct {
		Title string `json:"title"`
	}
	n0203 struct {
		Title string `json:"title"`
	}
	n0204 struct {
		Title string `json:"title"`
	}
	n0205 struct {
		Title string `json:"title"`
	}
	n0206 struct {
		Title string `json:"title"`
	}
	n0207 struct {
		Title string `json:"title"`
	}
	n0208 struct {
		Title string `json:"title"`
	}
	n0209 struct {
		Title string `json:"title"`
	}
	n0210 struct {
		Title string `json:"title"`
	}
	n0211 struct {
		Title string `json:"title"`
	}
	n0212 struct {
		Title string `json:"title"`
	}
	n0213 struct {
		Title string `json:"title"`
	}
	n0214 struct {
		Title string `json:"title"`
	}
	n0215 struct {
		Title string `json:"title"`
	}
	n0216 struct {
		Title string `json:"title"`
	}
	n0217 struct {
		Title string `json:"title"`
	}
	n0218 struct {
		Title string `json:"title"`
	}
	n0219 struct {
		Title string `json:"title"`
	}
	n0220 struct {
		Title string `json:"title"`
	}
	n0221 struct {
		Title string `json:"title"`
	}
	n0222 struct {
		Title string `json:"title"`
	}
	n0223 struct {
		Title string `json:"title"`
	}
	n0224 struct {
		Title string `json:"title"`
	}
	n0225 struct {
		Title string `json:"title"`
	}
	n0226 struct {
		Title string `json:"title"`
	}
	n0227 struct {
		Title string `json:"title"`
	}
	n0228 struct {
		Title string `json:"title"`
	}
	n0229 struct {
		Title string `json:"title"`
	}
	n0230 struct {
		Title string `json:"title"`
	}
	n0231 struct {
		Title string `json:"title"`
	}
	n0232 struct {
		Title string `json:"title"`
	}
	n0233 struct {
		Title string `json:"title"`
	}
	n0234 struct {
		Title string `json:"title"`
	}
	n0235 struct {
		Title string `json:"title"`
	}
	n0236 struct {
		Title string `json:"title"`
	}
	n0237 struct {
		Title string `json:"title"`
	}
	n0238 struct {
		Title string `json:"title"`
	}
	n0239 struct {
		Title string `json:"title"`
	}
	n0240 struct {
		Title string `json:"title"`
	}
	n0241 struct {
		Title string `json:"title"`
	}
	n0242 struct {
		Title string `json:"title"`
	}
	n0243 struct {
		Title string `json:"title"`
	}
	n0244 struct {
		Title string `json:"title"`
	}
	n0245 struct {
		Title string `json:"title"`
	}
	n0246 struct {
		Title string `json:"title"`
	}
	n0247 struct {
		Title string `json:"title"`
	}
	n0248 struct {
		Title string `json:"title"`
	}
	n0249 struct {
		Title string `json:"title"`
	}
	n0250 struct {
		Title string `json:"title"`
	}
	n0251 struct {
		Title string `json:"title"`
	}
	n0252 struct {
		Title string `json:"title"`
	}
	n0253 struct {
		Title string `json:"title"`
	}
	n0254 struct {
		Title string `json:"title"`
	}
	n0255 struct {
		Title string `json:"title"`
	}
	n0256 struct {
		Title string `json:"title"`
	}
	n0257 struct {
		Title string `json:"title"`
	}
	n0258 struct {
		Title string `json:"title"`
	}
	n0259 struct {
		Title string `json:"title"`
	}
	n0260 struct {
		Title string `json:"title"`
	}
	n0261 struct {
		Title string `json:"title"`
	}
	n0262 struct {
		Title string `json:"title"`
	}
	n0263 struct {
		Title string `json:"title"`
	}
	n0264 struct {
		Title string `json:"title"`
	}
	n0265 struct {
		Title string `json:"title"`
	}
	n0266 struct {
		Title string `json:"title"`
	}
	n0267 struct {
		Title string `json:"title"`
	}
	n0268 struct {
		Title string `json:"title"`
	}
	n0269 struct {
		Title string `json:"title"`
	}
	n0270 struct {
		Title string `json:"title"`
	}
	n0271 struct {
		Title string `json:"title"`
	}
	n0272 struct {
		Title string `json:"title"`
	}
	n0273 struct {
		Title string `json:"title"`
	}
	n0274 struct {
		Title string `json:"title"`
	}
	n0275 struct {
		Title string `json:"title"`
	}
	n0276 struct {
		Title string `json:"title"`
	}
	n0277 struct {
		Title string `json:"title"`
	}
	n0278 struct {
		Title string `json:"title"`
	}
	n0279 struct {
		Title string `json:"title"`
	}
	n0280 struct {
		Title string `json:"title"`
	}
	n0281 struct {
		Title string `json:"title"`
	}
	n0282 struct {
		Title string `json:"title"`
	}
	n0283 struct {
		Title string `json:"title"`
	}
	n0284 struct {
		Title string `json:"title"`
	}
	n0285 struct {
		Title string `json:"title"`
	}
	n0286 struct {
		Title string `json:"title"`
	}
	n0287 struct {
		Title string `json:"title"`
	}
	n0288 struct {
		Title string `json:"title"`
	}
	n0289 struct {
		Title string `json:"title"`
	}
	n0290 struct {
		Title string `json:"title"`
	}
	n0291 struct {
		Title string `json:"title"`
	}
	n0292 struct {
		Title string `json:"title"`
	}
	n0293 struct {
		Title string `json:"title"`
	}
	n0294 struct {
		Title string `json:"title"`
	}
	n0295 struct {
		Title string `json:"title"`
	}
	n0296 struct {
		Title string `json:"title"`
	}
	n0297 struct {
		Title string `json:"title"`
	}
	n0298 struct {
		Title string `json:"title"`
	}
	n0299 struct {
		Title string `json:"title"`
	}
	n0300 struct {
		Title string `json:"title"`
	}
	n0301 struct {
		Title string `json:"title"`
	}
	n0302 struct {
		Title string `json:"title"`
	}
	n0303 struct {
		Title string `json:"title"`
	}
	n0304 struct {
		Title string `json:"title"`
	}
	n0305 struct {
		Title string `json:"title"`
	}
	n0306 struct {
		Title string `json:"title"`
	}
	n0307 struct {
		Title string `json:"title"`
	}
	n0308 struct {
		Title string `json:"title"`
	}
	n0309 struct {
		Title string `json:"title"`
	}
	n0310 struct {
		Title string `json:"title"`
	}
	n0311 struct {
		Title string `json:"title"`
	}
	n0312 struct {
		Title string `json:"title"`
	}
	n0313 struct {
		Title string `json:"title"`
	}
	n0314 struct {
		Title string `json:"title"`
	}
	n0315 struct {
		Title string `json:"title"`
	}
	n0316 struct {
		Title string `json:"title"`
	}
	n0317 struct {
		Title string `json:"title"`
	}
	n0318 struct {
		Title string `json:"title"`
	}
	n0319 struct {
		Title string `json:"title"`
	}
	n0320 struct {
		Title string `json:"title"`
	}
	n0321 struct {
		Title string `json:"title"`
	}
	n0322 struct {
		Title string `json:"title"`
	}
	n0323 struct {
		Title string `json:"title"`
	}
	n0324 struct {
		Title string `json:"title"`
	}
	n0325 struct {
		Title string `json:"title"`
	}
	n0326 struct {
		Title string `json:"title"`
	}
	n0327 struct {
		Title string `json:"title"`
	}
	n0328 struct {
		Title string `json:"title"`
	}
	n0329 struct {
		Title string `json:"title"`
	}
	n0330 struct {
		Title string `json:"title"`
	}
	n0331 struct {
		Title string `json:"title"`
	}
	n0332 struct {
		Title string `json:"title"`
	}
	n0333 struct {
		Title string `json:"title"`
	}
	n0334 struct {
		Title string `json:"title"`
	}
	n0335 struct {
		Title string `json:"title"`
	}
	n0336 struct {
		Title string `json:"title"`
	}
	n0337 struct {
		Title string `json:"title"`
	}
	n0338 struct {
		Title string `json:"title"`
	}
	n0339 struct {
		Title string `json:"title"`
	}
	n0340 struct {
		Title string `json:"title"`
	}
	n0341 struct {
		Title string `json:"title"`
	}
	n0342 struct {
		Title string `json:"title"`
	}
	n0343 struct {
		Title string `json:"title"`
	}
	n0344 struct {
		Title string `json:"title"`
	}
	n0345 struct {
		Title string `json:"title"`
	}
	n0346 struct {
		Title string `json:"title"`
	}
	n0347 struct {
		Title string `json:"title"`
	}
	n0348 struct {
		Title string `json:"title"`
	}
	n0349 struct {
		Title string `json:"title"`
	}
	n0350 struct {
		Title string `json:"title"`
	}
	n0351 struct {
		Title string `json:"title"`
	}
	n0352 struct {
		Title string `json:"title"`
	}
	n0353 struct {
		Title string `json:"title"`
	}
	n0354 struct {
		Title string `json:"title"`
	}
	n0355 struct {
		Title string `json:"title"`
	}
	n0356 struct {
		Title string `json:"title"`
	}
	n0357 struct {
		Title string `json:"title"`
	}
	n0358 struct {
		Title string `json:"title"`
	}
	n0359 struct {
		Title string `json:"title"`
	}
	n0360 struct {
		Title string `json:"title"`
	}
	n0361 struct {
		Title string `json:"title"`
	}
	n0362 struct {
		Title string `json:"title"`
	}
	n0363 struct {
		Title string `json:"title"`
	}
	n0364 struct {
		Title string `json:"title"`
	}
	n0365 struct {
		Title string `json:"title"`
	}
	n0366 struct {
		Title string `json:"title"`
	}
	n0367 struct {
		Title string `json:"title"`
	}
	n0368 struct {
		Title string `json:"title"`
	}
	n0369 struct {
		Title string `json:"title"`
	}
	n0370 struct {
		Title string `json:"title"`
	}
	n0371 struct {
		Title string `json:"title"`
	}
	n0372 struct {
		Title string `json:"title"`
	}
	n0373 struct {
		Title string `json:"title"`
	}
	n0374 struct {
		Title string `json:"title"`
	}
	n0375 struct {
		Title string `json:"title"`
	}
	n0376 struct {
		Title string `json:"title"`
	}
	n0377 struct {
		Title string `json:"title"`
	}
	n0378 struct {
		Title string `json:"title"`
	}
	n0379 struct {
		Title string `json:"title"`
	}
	n0380 struct {
		Title string `json:"title"`
	}
	n0381 struct {
		Title string `json:"title"`
	}
	n0382 struct {
		Title string `json:"title"`
	}
	n0383 struct {
		Title string `json:"title"`
	}
	n0384 struct {
		Title string `json:"title"`
	}
	n0385 struct {
		Title string `json:"title"`
	}
	n0386 struct {
		Title string `json:"title"`
	}
	n0387 struct {
		Title string `json:"title"`
	}
	n0388 struct {
		Title string `json:"title"`
	}
	n0389 struct {
		Title string `json:"title"`
	}
	n0390 struct {
		Title string `json:"title"`
	}
	n0391 struct {
		Title string `json:"title"`
	}
	n0392 struct {
		Title string `json:"title"`
	}
	n0393 struct {
		Title string `json:"title"`
	}
	n0394 struct {
		Title string `json:"title"`
	}
	n0395 struct {
		Title string `json:"title"`
	}
	n0396 struct {
		Title string `json:"title"`
	}
	n0397 struct {
		Title string `json:"title"`
	}
	n0398 struct {
		Title string `json:"title"`
	}
	n0399 struct {
		Title string `json:"title"`
	}
	n0400 struct {
		Title string `json:"title"`
	}
	n0401 struct {
		Title string `json:"title"`
	}
	n0402 struct {
		Title string `json:"title"`
	}
	n0403 struct {
		Title string `json:"title"`
	}
	n0404 struct {
		Title string `json:"title"`
	}
	n0405 struct {
		Title string `json:"title"`
	}
	n0406 struct {
		Title string `json:"title"`
	}
	n0407 struct {
		Title string `json:"title"`
	}
	n0408 struct {
		Title string `json:"title"`
	}
	n0409 struct {
		Title string `json:"title"`
	}
	n0410 struct {
		Title string `json:"title"`
	}
	n0411 struct {
		Title string `json:"title"`
	}
	n0412 struct {
		Title string `json:"title"`
	}
	n0413 struct {
		Title string `json:"title"`
	}
	n0414 struct {
		Title string `json:"title"`
	}
	n0415 struct {
		Title string `json:"title"`
	}
	n0416 struct {
		Title string `json:"title"`
	}
	n0417 struct {
		Title string `json:"title"`
	}
	n0418 struct {
		Title string `json:"title"`
	}
	n0419 struct {
		Title string `json:"title"`
	}
	n0420 struct {
		Title string `json:"title"`
	}
	n0421 struct {
		Title string `json:"title"`
	}
	n0422 struct {
		Title string `json:"title"`
	}
	n0423 struct {
		Title string `json:"title"`
	}
	n0424 struct {
		Title string `json:"title"`
	}
	n0425 struct {
		Title string `json:"title"`
	}
	n0426 struct {
		Title string `json:"title"`
	}
	n0427 struct {
		Title string `json:"title"`
	}
	n0428 struct {
		Title string `json:"title"`
	}
	n0429 struct {
		Title string `json:"title"`
	}
	n0430 struct {
		Title string `json:"title"`
	}
	n0431 struct {
		Title string `json:"title"`
	}
	n0432 struct {
		Title string `json:"title"`
	}
	n0433 struct {
		Title string `json:"title"`
	}
	n0434 struct {
		Title string `json:"title"`
	}
	n0435 struct {
		Title string `json:"title"`
	}
	n0436 struct {
		Title string `json:"title"`
	}
	n0437 struct {
		Title string `json:"title"`
	}
	n0438 struct {
		Title string `json:"title"`
	}
	n0439 struct {
		Title string `json:"title"`
	}
	n0440 struct {
		Title string `json:"title"`
	}
	n0441 struct {
		Title string `json:"title"`
	}
	n0442 struct {
		Title string `json:"title"`
	}
	n0443 struct {
		Title string `json:"title"`
	}
	n0444 struct {
		Title string `json:"title"`
	}
	n0445 struct {
		Title string `json:"title"`
	}
	n0446 struct {
		Title string `json:"title"`
	}
	n0447 struct {
		Title string `json:"title"`
	}
	n0448 struct {
		Title string `json:"title"`
	}
	n0449 struct {
		Title string `json:"title"`
	}
	n0450 struct {
		Title string `json:"title"`
	}
	n0451 struct {
		Title string `json:"title"`
	}
	n0452 struct {
		Title string `json:"title"`
	}
	n0453 struct {
		Title string `json:"title"`
	}
	n0454 struct {
		Title string `json:"title"`
	}
	n0455 struct {
		Title string `json:"title"`
	}
	n0456 struct {
		Title string `json:"title"`
	}
	n0457 struct {
		Title string `json:"title"`
	}
	n0458 struct {
		Title string `json:"title"`
	}
	n0459 struct {
		Title string `json:"title"`
	}
	n0460 struct {
		Title string `json:"title"`
	}
	n0461 struct {
		Title string `json:"title"`
	}
	n0462 struct {
		Title string `json:"title"`
	}
	n0463 struct {
		Title string `json:"title"`
	}
	n0464 struct {
		Title string `json:"title"`
	}
	n0465 struct {
		Title string `json:"title"`
	}
	n0466 struct {
		Title string `json:"title"`
	}
	n0467 struct {
		Title string `json:"title"`
	}
	n0468 struct {
		Title string `json:"title"`
	}
	n0469 struct {
		Title string `json:"title"`
	}
	n0470 struct {
		Title string `json:"title"`
	}
	n0471 struct {
		Title string `json:"title"`
	}
	n0472 struct {
		Title string `json:"title"`
	}
	n0473 struct {
		Title string `json:"title"`
	}
	n0474 struct {
		Title string `json:"title"`
	}
	n0475 struct {
		Title string `json:"title"`
	}
	n0476 struct {
		Title string `json:"title"`
	}
	n0477 struct {
		Title string `json:"title"`
	}
	n0478 struct {
		Title string `json:"title"`
	}
	n0479 struct {
		Title string `json:"title"`
	}
	n0480 struct {
		Title string `json:"title"`
	}
	n0481 struct {
		Title string `json:"title"`
	}
	n0482 struct {
		Title string `json:"title"`
	}
	n0483 struct {
		Title string `json:"title"`
	}
	n0484 struct {
		Title string `json:"title"`
	}
	n0485 struct {
		Title string `json:"title"`
	}
	n0486 struct {
		Title string `json:"title"`
	}
	n0487 struct {
		Title string `json:"title"`
	}
	n0488 struct {
		Title string `json:"title"`
	}
	n0489 struct {
		Title string `json:"title"`
	}
	n0490 struct {
		Title string `json:"title"`
	}
	n0491 struct {
		Title string `json:"title"`
	}
	n0492 struct {
		Title string `json:"title"`
	}
	n0493 struct {
		Title string `json:"title"`
	}
	n0494 struct {
		Title string `json:"title"`
	}
	n0495 struct {
		Title string `json:"title"`
	}
	n0496 struct {
		Title string `json:"title"`
	}
	n0497 struct {
		Title string `json:"title"`
	}
	n0498 struct {
		Title string `json:"title"`
	}
	n0499 struct {
		Title string `json:"title"`
	}
	n0500 struct {
		Title string `json:"title"`
	}
	n0501 struct {
		Title string `json:"title"`
	}
	n0502 struct {
		Title string `json:"title"`
	}
	n0503 struct {
		Title string `json:"title"`
	}
	n0504 struct {
		Title string `json:"title"`
	}
	n0505 struct {
		Title string `json:"title"`
	}
	n0506 struct {
		Title string `json:"title"`
	}
	n0507 struct {
		Title string `json:"title"`
	}
	n0508 struct {
		Title string `json:"title"`
	}
	n0509 struct {
		Title string `json:"title"`
	}
	n0510 struct {
		Title string `json:"title"`
	}
	n0511 struct {
		Title string `json:"title"`
	}
	n0512 struct {
		Title string `json:"title"`
	}
	n0513 struct {
		Title string `json:"title"`
	}
	n0514 struct {
		Title string `json:"title"`
	}
	n0515 struct {
		Title string `json:"title"`
	}
	n0516 struct {
		Title string `json:"title"`
	}
	n0517 struct {
		Title string `json:"title"`
	}
	n0518 struct {
		Title string `json:"title"`
	}
	n0519 struct {
		Title string `json:"title"`
	}
	n0520 struct {
		Title string `json:"title"`
	}
	n0521 struct {
		Title string `json:"title"`
	}
	n0522 struct {
		Title string `json:"title"`
	}
	n0523 struct {
		Title string `json:"title"`
	}
	n0524 struct {
		Title string `json:"title"`
	}
	n0525 struct {
		Title string `json:"title"`
	}
	n0526 struct {
		Title string `json:"title"`
	}
	n0527 struct {
		Title string `json:"title"`
	}
	n0528 struct {
		Title string `json:"title"`
	}
	n0529 struct {
		Title string `json:"title"`
	}
	n0530 struct {
		Title string `json:"title"`
	}
	n0531 struct {
		Title string `json:"title"`
	}
	n0532 struct {
		Title string `json:"title"`
	}
	n0533 struct {
		Title string `json:"title"`
	}
	n0534 struct {
		Title string `json:"title"`
	}
	n0535 struct {
		Title string `json:"title"`
	}
	n0536 struct {
		Title string `json:"title"`
	}
	n0537 struct {
		Title string `json:"title"`
	}
	n0538 struct {
		Title string `json:"title"`
	}
	n0539 struct {
		Title string `json:"title"`
	}
	n0540 struct {
		Title string `json:"title"`
	}
	n0541 struct {
		Title string `json:"title"`
	}
	n0542 struct {
		Title string `json:"title"`
	}
	n0543 struct {
		Title string `json:"title"`
	}
	n0544 struct {
		Title string `json:"title"`
	}
	n0545 struct {
		Title string `json:"title"`
	}
	n0546 struct {
		Title string `json:"title"`
	}
	n0547 struct {
		Title string `json:"title"`
	}
	n0548 struct {
		Title string `json:"title"`
	}
	n0549 struct {
		Title string `json:"title"`
	}
	n0550 struct {
		Title string `json:"title"`
	}
	n0551 struct {
		Title string `json:"title"`
	}
	n0552 struct {
		Title string `json:"title"`
	}
	n0553 struct {
		Title string `json:"title"`
	}
	n0554 struct {
		Title string `json:"title"`
	}
	n0555 struct {
		Title string `json:"title"`
	}
	n0556 struct {
		Title string `json:"title"`
	}
	n0557 struct {
		Title string `json:"title"`
	}
	n0558 struct {
		Title string `json:"title"`
	}
	n0559 struct {
		Title string `json:"title"`
	}
	n0560 struct {
		Title string `json:"title"`
	}
	n0561 struct {
		Title string `json:"title"`
	}
	n0562 struct {
		Title string `json:"title"`
	}
	n0563 struct {
		Title string `json:"title"`
	}
	n0564 struct {
		Title string `json:"title"`
	}
	n0565 struct {
		Title string `json:"title"`
	}
	n0566 struct {
		Title string `json:"title"`
	}
	n0567 struct {
		Title string `json:"title"`
	}
	n0568 struct {
		Title string `json:"title"`
	}
	n0569 struct {
		Title string `json:"title"`
	}
	n0570 struct {
		Title string `json:"title"`
	}
	n0571 struct {
		Title string `json:"title"`
	}
	n0572 struct {
		Title string `json:"title"`
	}
	n0573 struct {
		Title string `json:"title"`
	}
	n0574 struct {
		Title string `json:"title"`
	}
	n0575 struct {
		Title string `json:"title"`
	}
	n0576 struct {
		Title string `json:"title"`
	}
	n0577 struct {
		Title string `json:"title"`
	}
	n0578 struct {
		Title string `json:"title"`
	}
	n0579 struct {
		Title string `json:"title"`
	}
	n0580 struct {
		Title string `json:"title"`
	}
	n0581 struct {
		Title string `json:"title"`
	}
	n0582 struct {
		Title string `json:"title"`
	}
	n0583 struct {
		Title string `json:"title"`
	}
	n0584 struct {
		Title string `json:"title"`
	}
	n0585 struct {
		Title string `json:"title"`
	}
	n0586 struct {
		Title string `json:"title"`
	}
	n0587 struct {
		Title string `json:"title"`
	}
	n0588 struct {
		Title string `json:"title"`
	}
	n0589 struct {
		Title string `json:"title"`
	}
	n0590 struct {
		Title string `json:"title"`
	}
	n0591 struct {
		Title string `json:"title"`
	}
	n0592 struct {
		Title string `json:"title"`
	}
	n0593 struct {
		Title string `json:"title"`
	}
	n0594 struct {
		Title string `json:"title"`
	}
	n0595 struct {
		Title string `json:"title"`
	}
	n0596 struct {
		Title string `json:"title"`
	}
	n0597 struct {
		Title string `json:"title"`
	}
	n0598 struct {
		Title string `json:"title"`
	}
	n0599 struct {
		Title string `json:"title"`
	}
	n0600 struct {
		Title string `json:"title"`
	}
	n0601 struct {
		Title string `json:"title"`
	}
	n0602 struct {
		Title string `json:"title"`
	}
	n0603 struct {
		Title string `json:"title"`
	}
	n0604 struct {
		Title string `json:"title"`
	}
	n0605 struct {
		Title string `json:"title"`
	}
	n0606 struct {
		Title string `json:"title"`
	}
	n0607 struct {
		Title string `json:"title"`
	}
	n0608 struct {
		Title string `json:"title"`
	}
	n0609 struct {
		Title string `json:"title"`
	}
	n0610 struct {
		Title string `json:"title"`
	}
	n0611 struct {
		Title string `json:"title"`
	}
	n0612 struct {
		Title string `json:"title"`
	}
	n0613 struct {
		Title string `json:"title"`
	}
	n0614 struct {
		Title string `json:"title"`
	}
	n0615 struct {
		Title string `json:"title"`
	}
	n0616 struct {
		Title string `json:"title"`
	}
	n0617 struct {
		Title string `json:"title"`
	}
	n0618 struct {
		Title string `json:"title"`
	}
	n0619 struct {
		Title string `json:"title"`
	}
	n0620 struct {
		Title string `json:"title"`
	}
	n0621 struct {
		Title string `json:"title"`
	}
	n0622 struct {
		Title string `json:"title"`
	}
	n0623 struct {
		Title string `json:"title"`
	}
	n0624 struct {
		Title string `json:"title"`
	}
	n0625 struct {
		Title string `json:"title"`
	}
	n0626 struct {
		Title string `json:"title"`
	}
	n0627 struct {
		Title string `json:"title"`
	}
	n0628 struct {
		Title string `json:"title"`
	}
	n0629 struct {
		Title string `json:"title"`
	}
	n0630 struct {
		Title string `json:"title"`
	}
	n0631 struct {
		Title string `json:"title"`
	}
	n0632 struct {
		Title string `json:"title"`
	}
	n0633 struct {
		Title string `json:"title"`
	}
	n0634 struct {
		Title string `json:"title"`
	}
	n0635 struct {
		Title string `json:"title"`
	}
	n0636 struct {
		Title string `json:"title"`
	}
	n0637 struct {
		Title string `json:"title"`
	}
	n0638 struct {
		Title string `json:"title"`
	}
	n0639 struct {
		Title string `json:"title"`
	}
	n0640 struct {
		Title string `json:"title"`
	}
	n0641 struct {
		Title string `json:"title"`
	}
	n0642 struct {
		Title string `json:"title"`
	}
	n0643 struct {
		Title string `json:"title"`
	}
	n0644 struct {
		Title string `json:"title"`
	}
	n0645 struct {
		Title string `json:"title"`
	}
	n0646 struct {
		Title string `json:"title"`
	}
	n0647 struct {
		Title string `json:"title"`
	}
	n0648 struct {
		Title string `json:"title"`
	}
	n0649 struct {
		Title string `json:"title"`
	}
	n0650 struct {
		Title string `json:"title"`
	}
	n0651 struct {
		Title string `json:"title"`
	}
	n0652 struct {
		Title string `json:"title"`
	}
	n0653 struct {
		Title string `json:"title"`
	}
	n0654 struct {
		Title string `json:"title"`
	}
	n0655 struct {
		Title string `json:"title"`
	}
	n0656 struct {
		Title string `json:"title"`
	}
	n0657 struct {
		Title string `json:"title"`
	}
	n0658 struct {
		Title string `json:"title"`
	}
	n0659 struct {
		Title string `json:"title"`
	}
	n0660 struct {
		Title string `json:"title"`
	}
	n0661 struct {
		Title string `json:"title"`
	}
	n0662 struct {
		Title string `json:"title"`
	}
	n0663 struct {
		Title string `json:"title"`
	}
	n0664 struct {
		Title string `json:"title"`
	}
	n0665 struct {
		Title string `json:"title"`
	}
	n0666 struct {
		Title string `json:"title"`
	}
	n0667 struct {
		Title string `json:"title"`
	}
	n0668 struct {
		Title string `json:"title"`
	}
	n0669 struct {
		Title string `json:"title"`
	}
	n0670 struct {
		Title string `json:"title"`
	}
	n0671 struct {
		Title string `json:"title"`
	}
	n0672 struct {
		Title string `json:"title"`
	}
	n0673 struct {
		Title string `json:"title"`
	}
	n0674 struct {
		Title string `json:"title"`
	}
	n0675 struct {
		Title string `json:"title"`
	}
	n0676 struct {
		Title string `json:"title"`
	}
	n0677 struct {
		Title string `json:"title"`
	}
	n0678 struct {
		Title string `json:"title"`
	}
	n0679 struct {
		Title string `json:"title"`
	}
	n0680 struct {
		Title string `json:"title"`
	}
	n0681 struct {
		Title string `json:"title"`
	}
	n0682 struct {
		Title string `json:"title"`
	}
	n0683 struct {
		Title string `json:"title"`
	}
	n0684 struct {
		Title string `json:"title"`
	}
	n0685 struct {
		Title string `json:"title"`
	}
	n0686 struct {
		Title string `json:"title"`
	}
	n0687 struct {
		Title string `json:"title"`
	}
	n0688 struct {
		Title string `json:"title"`
	}
	n0689 struct {
		Title string `json:"title"`
	}
	n0690 struct {
		Title string `json:"title"`
	}
	n0691 struct {
		Title string `json:"title"`
	}
	n0692 struct {
		Title string `json:"title"`
	}
	n0693 struct {
		Title string `json:"title"`
	}
	n0694 struct {
		Title string `json:"title"`
	}
	n0695 struct {
		Title string `json:"title"`
	}
	n0696 struct {
		Title string `json:"title"`
	}
	n0697 struct {
		Title string `json:"title"`
	}
	n0698 struct {
		Title string `json:"title"`
	}
	n0699 struct {
		Title string `json:"title"`
	}
	n0700 struct {
		Title string `json:"title"`
	}
	n0701 struct {
		Title string `json:"title"`
	}
	n0702 struct {
		Title string `json:"title"`
	}
	n0703 struct {
		Title string `json:"title"`
	}
	n0704 struct {
		Title string `json:"title"`
	}
	n0705 struct {
		Title string `json:"title"`
	}
	n0706 struct {
		Title string `json:"title"`
	}
	n0707 struct {
		Title string `json:"title"`
	}
	n0708 struct {
		Title string `json:"title"`
	}
	n0709 struct {
		Title string `json:"title"`
	}
	n0710 struct {
		Title string `json:"title"`
	}
	n0711 struct {
		Title string `json:"title"`
	}
	n0712 struct {
		Title string `json:"title"`
	}
	n0713 struct {
		Title string `json:"title"`
	}
	n0714 struct {
		Title string `json:"title"`
	}
	n0715 struct {
		Title string `json:"title"`
	}
	n0716 struct {
		Title string `json:"title"`
	}
	n0717 struct {
		Title string `json:"title"`
	}
	n0718 struct {
		Title string `json:"title"`
	}
	n0719 struct {
		Title string `json:"title"`
	}
	n0720 struct {
		Title string `json:"title"`
	}
	n0721 struct {
		Title string `json:"title"`
	}
	n0722 struct {
		Title string `json:"title"`
	}
	n0723 struct {
		Title string `json:"title"`
	}
	n0724 struct {
		Title string `json:"title"`
	}
	n0725 struct {
		Title string `json:"title"`
	}
	n0726 struct {
		Title string `json:"title"`
	}
	n0727 struct {
		Title string `json:"title"`
	}
	n0728 struct {
		Title string `json:"title"`
	}
	n0729 struct {
		Title string `json:"title"`
	}
	n0730 struct {
		Title string `json:"title"`
	}
	n0731 struct {
		Title string `json:"title"`
	}
	n0732 struct {
		Title string `json:"title"`
	}
	n0733 struct {
		Title string `json:"title"`
	}
	n0734 struct {
		Title string `json:"title"`
	}
	n0735 struct {
		Title string `json:"title"`
	}
	n0736 struct {
		Title string `json:"title"`
	}
	n0737 struct {
		Title string `json:"title"`
	}
	n0738 struct {
		Title string `json:"title"`
	}
	n0739 struct {
		Title string `json:"title"`
	}
	n0740 struct {
		Title string `json:"title"`
	}
	n0741 struct {
		Title string `json:"title"`
	}
	n0742 struct {
		Title string `json:"title"`
	}
	n0743 struct {
		Title string `json:"title"`
	}
	n0744 struct {
		Title string `json:"title"`
	}
	n0745 struct {
		Title string `json:"title"`
	}
	n0746 struct {
		Title string `json:"title"`
	}
	n0747 struct {
		Title string `json:"title"`
	}
	n0748 struct {
		Title string `json:"title"`
	}
	n0749 struct {
		Title string `json:"title"`
	}
	n0750 struct {
		Title string `json:"title"`
	}
	n0751 struct {
		Title string `json:"title"`
	}
	n0752 struct {
		Title string `json:"title"`
	}
	n0753 struct {
		Title string `json:"title"`
	}
	n0754 struct {
		Title string `json:"title"`
	}
	n0755 struct {
		Title string `json:"title"`
	}
	n0756 struct {
		Title string `json:"title"`
	}
	n0757 struct {
		Title string `json:"title"`
	}
	n0758 struct {
		Title string `json:"title"`
	}
	n0759 struct {
		Title string `json:"title"`
	}
	n0760 struct {
		Title string `json:"title"`
	}
	n0761 struct {
		Title string `json:"title"`
	}
	n0762 struct {
		Title string `json:"title"`
	}
	n0763 struct {
		Title string `json:"title"`
	}
	n0764 struct {
		Title string `json:"title"`
	}
	n0765 struct {
		Title string `json:"title"`
	}
	n0766 struct {
		Title string `json:"title"`
	}
	n0767 struct {
		Title string `json:"title"`
	}
	n0768 struct {
		Title string `json:"title"`
	}
	n0769 struct {
		Title string `json:"title"`
	}
	n0770 struct {
		Title string `json:"title"`
	}
	n0771 struct {
		Title string `json:"title"`
	}
	n0772 struct {
		Title string `json:"title"`
	}
	n0773 struct {
		Title string `json:"title"`
	}
	n0774 struct {
		Title string `json:"title"`
	}
	n0775 struct {
		Title string `json:"title"`
	}
	n0776 struct {
		Title string `json:"title"`
	}
	n0777 struct {
		Title string `json:"title"`
	}
	n0778 struct {
		Title string `json:"title"`
	}
	n0779 struct {
		Title string `json:"title"`
	}
	n0780 struct {
		Title string `json:"title"`
	}
	n0781 struct {
		Title string `json:"title"`
	}
	n0782 struct {
		Title string `json:"title"`
	}
	n0783 struct {
		Title string `json:"title"`
	}
	n0784 struct {
		Title string `json:"title"`
	}
	n0785 struct {
		Title string `json:"title"`
	}
	n0786 struct {
		Title string `json:"title"`
	}
	n0787 struct {
		Title string `json:"title"`
	}
	n0788 struct {
		Title string `json:"title"`
	}
	n0789 struct {
		Title string `json:"title"`
	}
	n0790 struct {
		Title string `json:"title"`
	}
	n0791 struct {
		Title string `json:"title"`
	}
	n0792 struct {
		Title string `json:"title"`
	}
	n0793 struct {
		Title string `json:"title"`
	}
	n0794 struct {
		Title string `json:"title"`
	}
	n0795 struct {
		Title string `json:"title"`
	}
	n0796 struct {
		Title string `json:"title"`
	}
	n0797 struct {
		Title string `json:"title"`
	}
	n0798 struct {
		Title string `json:"title"`
	}
	n0799 struct {
		Title string `json:"title"`
	}
	n0800 struct {
		Title string `json:"title"`
	}
	n0801 struct {
		Title string `json:"title"`
	}
	n0802 struct {
		Title string `json:"title"`
	}
	n0803 struct {
		Title string `json:"title"`
	}
	n0804 struct {
		Title string `json:"title"`
	}
	n0805 struct {
		Title string `json:"title"`
	}
	n0806 struct {
		Title string `json:"title"`
	}
	n0807 struct {
		Title string `json:"title"`
	}
	n0808 struct {
		Title string `json:"title"`
	}
	n0809 struct {
		Title string `json:"title"`
	}
	n0810 struct {
		Title string `json:"title"`
	}
	n0811 struct {
		Title string `json:"title"`
	}
	n0812 struct {
		Title string `json:"title"`
	}
	n0813 struct {
		Title string `json:"title"`
	}
	n0814 struct {
		Title string `json:"title"`
	}
	n0815 struct {
		Title string `json:"title"`
	}
	n0816 struct {
		Title string `json:"title"`
	}
	n0817 struct {
		Title string `json:"title"`
	}
	n0818 struct {
		Title string `json:"title"`
	}
	n0819 struct {
		Title string `json:"title"`
	}
	n0820 struct {
		Title string `json:"title"`
	}
	n0821 struct {
		Title string `json:"title"`
	}
	n0822 struct {
		Title string `json:"title"`
	}
	n0823 struct {
		Title string `json:"title"`
	}
	n0824 struct {
		Title string `json:"title"`
	}
	n0825 struct {
		Title string `json:"title"`
	}
	n0826 struct {
		Title string `json:"title"`
	}
	n0827 struct {
		Title string `json:"title"`
	}
	n0828 struct {
		Title string `json:"title"`
	}
	n0829 struct {
		Title string `json:"title"`
	}
	n0830 struct {
		Title string `json:"title"`
	}
	n0831 struct {
		Title string `json:"title"`
	}
	n0832 struct {
		Title string `json:"title"`
	}
	n0833 struct {
		Title string `json:"title"`
	}
	n0834 struct {
		Title string `json:"title"`
	}
	n0835 struct {
		Title string `json:"title"`
	}
	n0836 struct {
		Title string `json:"title"`
	}
	n0837 struct {
		Title string `json:"title"`
	}
	n0838 struct {
		Title string `json:"title"`
	}
	n0839 struct {
		Title string `json:"title"`
	}
	n0840 struct {
		Title string `json:"title"`
	}
	n0841 struct {
		Title string `json:"title"`
	}
	n0842 struct {
		Title string `json:"title"`
	}
	n0843 struct {
		Title string `json:"title"`
	}
	n0844 struct {
		Title string `json:"title"`
	}
	n0845 struct {
		Title string `json:"title"`
	}
	n0846 struct {
		Title string `json:"title"`
	}
	n0847 struct {
		Title string `json:"title"`
	}
	n0848 struct {
		Title string `json:"title"`
	}
	n0849 struct {
		Title string `json:"title"`
	}
	n0850 struct {
		Title string `json:"title"`
	}
	n0851 struct {
		Title string `json:"title"`
	}
	n0852 struct {
		Title string `json:"title"`
	}
	n0853 struct {
		Title string `json:"title"`
	}
	n0854 struct {
		Title string `json:"title"`
	}
	n0855 struct {
		Title string `json:"title"`
	}
	n0856 struct {
		Title string `json:"title"`
	}
	n0857 struct {
		Title string `json:"title"`
	}
	n0858 struct {
		Title string `json:"title"`
	}
	n0859 struct {
		Title string `json:"title"`
	}
	n0860 struct {
		Title string `json:"title"`
	}
	n0861 struct {
		Title string `json:"title"`
	}
	n0862 struct {
		Title string `json:"title"`
	}
	n0863 struct {
		Title string `json:"title"`
	}
	n0864 struct {
		Title string `json:"title"`
	}
	n0865 struct {
		Title string `json:"title"`
	}
	n0866 struct {
		Title string `json:"title"`
	}
	n0867 struct {
		Title string `json:"title"`
	}
	n0868 struct {
		Title string `json:"title"`
	}
	n0869 struct {
		Title string `json:"title"`
	}
	n0870 struct {
		Title string `json:"title"`
	}
	n0871 struct {
		Title string `json:"title"`
	}
	n0872 struct {
		Title string `json:"title"`
	}
	n0873 struct {
		Title string `json:"title"`
	}
	n0874 struct {
		Title string `json:"title"`
	}
	n0875 struct {
		Title string `json:"title"`
	}
	n0876 struct {
		Title string `json:"title"`
	}
	n0877 struct {
		Title string `json:"title"`
	}
	n0878 struct {
		Title string `json:"title"`
	}
	n0879 struct {
		Title string `json:"title"`
	}
	n0880 struct {
		Title string `json:"title"`
	}
	n0881 struct {
		Title string `json:"title"`
	}
	n0882 struct {
		Title string `json:"title"`
	}
	n0883 struct {
		Title string `json:"title"`
	}
	n0884 struct {
		Title string `json:"title"`
	}
	n0885 struct {
		Title string `json:"title"`
	}
	n0886 struct {
		Title string `json:"title"`
	}
	n0887 struct {
		Title string `json:"title"`
	}
	n0888 struct {
		Title string `json:"title"`
	}
	n0889 struct {
		Title string `json:"title"`
	}
	n0890 struct {
		Title string `json:"title"`
	}
	n0891 struct {
		Title string `json:"title"`
	}
	n0892 struct {
		Title string `json:"title"`
	}
	n0893 struct {
		Title string `json:"title"`
	}
	n0894 struct {
		Title string `json:"title"`
	}
	n0895 struct {
		Title string `json:"title"`
	}
	n0896 struct {
		Title string `json:"title"`
	}
	n0897 struct {
		Title string `json:"title"`
	}
	n0898 struct {
		Title string `json:"title"`
	}
	n0899 struct {
		Title string `json:"title"`
	}
	n0900 struct {
		Title string `json:"title"`
	}
	n0901 struct {
		Title string `json:"title"`
	}
	n0902 struct {
		Title string `json:"title"`
	}
	n0903 struct {
		Title string `json:"title"`
	}
	n0904 struct {
		Title string `json:"title"`
	}
	n0905 struct {
		Title string `json:"title"`
	}
	n0906 struct {
		Title string `json:"title"`
	}
	n0907 struct {
		Title string `json:"title"`
	}
	n0908 struct {
		Title string `json:"title"`
	}
	n0909 struct {
		Title string `json:"title"`
	}
	n0910 struct {
		Title string `json:"title"`
	}
	n0911 struct {
		Title string `json:"title"`
	}
	n0912 struct {
		Title string `json:"title"`
	}
	n0913 struct {
		Title string `json:"title"`
	}
	n0914 struct {
		Title string `json:"title"`
	}
	n0915 struct {
		Title string `json:"title"`
	}
	n0916 struct {
		Title string `json:"title"`
	}
	n0917 struct {
		Title string `json:"title"`
	}
	n0918 struct {
		Title string `json:"title"`
	}
	n0919 struct {
		Title string `json:"title"`
	}
	n0920 struct {
		Title string `json:"title"`
	}
	n0921 struct {
		Title string `json:"title"`
	}
	n0922 struct {
		Title string `json:"title"`
	}
	n0923 struct {
		Title string `json:"title"`
	}
	n0924 struct {
		Title string `json:"title"`
	}
	n0925 struct {
		Title string `json:"title"`
	}
	n0926 struct {
		Title string `json:"title"`
	}
	n0927 struct {
		Title string `json:"title"`
	}
	n0928 struct {
		Title string `json:"title"`
	}
	n0929 struct {
		Title string `json:"title"`
	}
	n0930 struct {
		Title string `json:"title"`
	}
	n0931 struct {
		Title string `json:"title"`
	}
	n0932 struct {
		Title string `json:"title"`
	}
	n0933 struct {
		Title string `json:"title"`
	}
	n0934 struct {
		Title string `json:"title"`
	}
	n0935 struct {
		Title string `json:"title"`
	}
	n0936 struct {
		Title string `json:"title"`
	}
	n0937 struct {
		Title string `json:"title"`
	}
	n0938 struct {
		Title string `json:"title"`
	}
	n0939 struct {
		Title string `json:"title"`
	}
	n0940 struct {
		Title string `json:"title"`
	}
	n0941 struct {
		Title string `json:"title"`
	}
	n0942 struct {
		Title string `json:"title"`
	}
	n0943 struct {
		Title string `json:"title"`
	}
	n0944 struct {
		Title string `json:"title"`
	}
	n0945 struct {
		Title string `json:"title"`
	}
	n0946 struct {
		Title string `json:"title"`
	}
	n0947 struct {
		Title string `json:"title"`
	}
	n0948 struct {
		Title string `json:"title"`
	}
	n0949 struct {
		Title string `json:"title"`
	}
	n0950 struct {
		Title string `json:"title"`
	}
	n0951 struct {
		Title string `json:"title"`
	}
	n0952 struct {
		Title string `json:"title"`
	}
	n0953 struct {
		Title string `json:"title"`
	}
	n0954 struct {
		Title string `json:"title"`
	}
	n0955 struct {
		Title string `json:"title"`
	}
	n0956 struct {
		Title string `json:"title"`
	}
	n0957 struct {
		Title string `json:"title"`
	}
	n0958 struct {
		Title string `json:"title"`
	}
	n0959 struct {
		Title string `json:"title"`
	}
	n0960 struct {
		Title string `json:"title"`
	}
	n0961 struct {
		Title string `json:"title"`
	}
	n0962 struct {
		Title string `json:"title"`
	}
	n0963 struct {
		Title string `json:"title"`
	}
	n0964 struct {
		Title string `json:"title"`
	}
	n0965 struct {
		Title string `json:"title"`
	}
	n0966 struct {
		Title string `json:"title"`
	}
	n0967 struct {
		Title string `json:"title"`
	}
	n0968 struct {
		Title string `json:"title"`
	}
	n0969 struct {
		Title string `json:"title"`
	}
	n0970 struct {
		Title string `json:"title"`
	}
	n0971 struct {
		Title string `json:"title"`
	}
	n0972 struct {
		Title string `json:"title"`
	}
	n0973 struct {
		Title string `json:"title"`
	}
	n0974 struct {
		Title string `json:"title"`
	}
	n0975 struct {
		Title string `json:"title"`
	}
	n0976 struct {
		Title string `json:"title"`
	}
	n0977 struct {
		Title string `json:"title"`
	}
	n0978 struct {
		Title string `json:"title"`
	}
	n0979 struct {
		Title string `json:"title"`
	}
	n0980 struct {
		Title string `json:"title"`
	}
	n0981 struct {
		Title string `json:"title"`
	}
	n0982 struct {
		Title string `json:"title"`
	}
	n0983 struct {
		Title string `json:"title"`
	}
	n0984 struct {
		Title string `json:"title"`
	}
	n0985 struct {
		Title string `json:"title"`
	}
	n0986 struct {
		Title string `json:"title"`
	}
	n0987 struct {
		Title string `json:"title"`
	}
	n0988 struct {
		Title string `json:"title"`
	}
	n0989 struct {
		Title string `json:"title"`
	}
	n0990 struct {
		Title string `json:"title"`
	}
	n0991 struct {
		Title string `json:"title"`
	}
	n0992 struct {
		Title string `json:"title"`
	}
	n0993 struct {
		Title string `json:"title"`
	}
	n0994 struct {
		Title string `json:"title"`
	}
	n0995 struct {
		Title string `json:"title"`
	}
	n0996 struct {
		Title string `json:"title"`
	}
	n0997 struct {
		Title string `json:"title"`
	}
	n0998 struct {
		Title string `json:"title"`
	}
	n0999 struct {
		Title string `json:"title"`
	}
)

// noteCapabilities returns the first n of the 1,000 capabilities, each
// available whenever avail says, which reads only reads (nil: undeclared).
func noteCapabilities(n int, avail func(int) bool, reads []agent.Watch[int]) []agent.Capability[int, agent.NoPrincipal] {
	all := [...]func() agent.Capability[int, agent.NoPrincipal]{
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0000, int, agent.NoPrincipal]{Name: "note_0000", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0001, int, agent.NoPrincipal]{Name: "note_0001", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0002, int, agent.NoPrincipal]{Name: "note_0002", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0003, int, agent.NoPrincipal]{Name: "note_0003", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0004, int, agent.NoPrincipal]{Name: "note_0004", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0005, int, agent.NoPrincipal]{Name: "note_0005", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0006, int, agent.NoPrincipal]{Name: "note_0006", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0007, int, agent.NoPrincipal]{Name: "note_0007", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0008, int, agent.NoPrincipal]{Name: "note_0008", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0009, int, agent.NoPrincipal]{Name: "note_0009", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0010, int, agent.NoPrincipal]{Name: "note_0010", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0011, int, agent.NoPrincipal]{Name: "note_0011", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0012, int, agent.NoPrincipal]{Name: "note_0012", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0013, int, agent.NoPrincipal]{Name: "note_0013", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0014, int, agent.NoPrincipal]{Name: "note_0014", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0015, int, agent.NoPrincipal]{Name: "note_0015", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0016, int, agent.NoPrincipal]{Name: "note_0016", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0017, int, agent.NoPrincipal]{Name: "note_0017", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0018, int, agent.NoPrincipal]{Name: "note_0018", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0019, int, agent.NoPrincipal]{Name: "note_0019", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0020, int, agent.NoPrincipal]{Name: "note_0020", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0021, int, agent.NoPrincipal]{Name: "note_0021", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0022, int, agent.NoPrincipal]{Name: "note_0022", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0023, int, agent.NoPrincipal]{Name: "note_0023", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0024, int, agent.NoPrincipal]{Name: "note_0024", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0025, int, agent.NoPrincipal]{Name: "note_0025", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0026, int, agent.NoPrincipal]{Name: "note_0026", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0027, int, agent.NoPrincipal]{Name: "note_0027", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0028, int, agent.NoPrincipal]{Name: "note_0028", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0029, int, agent.NoPrincipal]{Name: "note_0029", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0030, int, agent.NoPrincipal]{Name: "note_0030", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0031, int, agent.NoPrincipal]{Name: "note_0031", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0032, int, agent.NoPrincipal]{Name: "note_0032", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0033, int, agent.NoPrincipal]{Name: "note_0033", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0034, int, agent.NoPrincipal]{Name: "note_0034", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0035, int, agent.NoPrincipal]{Name: "note_0035", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0036, int, agent.NoPrincipal]{Name: "note_0036", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0037, int, agent.NoPrincipal]{Name: "note_0037", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0038, int, agent.NoPrincipal]{Name: "note_0038", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0039, int, agent.NoPrincipal]{Name: "note_0039", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0040, int, agent.NoPrincipal]{Name: "note_0040", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0041, int, agent.NoPrincipal]{Name: "note_0041", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0042, int, agent.NoPrincipal]{Name: "note_0042", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0043, int, agent.NoPrincipal]{Name: "note_0043", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0044, int, agent.NoPrincipal]{Name: "note_0044", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0045, int, agent.NoPrincipal]{Name: "note_0045", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0046, int, agent.NoPrincipal]{Name: "note_0046", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0047, int, agent.NoPrincipal]{Name: "note_0047", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0048, int, agent.NoPrincipal]{Name: "note_0048", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0049, int, agent.NoPrincipal]{Name: "note_0049", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0050, int, agent.NoPrincipal]{Name: "note_0050", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0051, int, agent.NoPrincipal]{Name: "note_0051", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0052, int, agent.NoPrincipal]{Name: "note_0052", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0053, int, agent.NoPrincipal]{Name: "note_0053", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0054, int, agent.NoPrincipal]{Name: "note_0054", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0055, int, agent.NoPrincipal]{Name: "note_0055", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0056, int, agent.NoPrincipal]{Name: "note_0056", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0057, int, agent.NoPrincipal]{Name: "note_0057", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0058, int, agent.NoPrincipal]{Name: "note_0058", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0059, int, agent.NoPrincipal]{Name: "note_0059", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0060, int, agent.NoPrincipal]{Name: "note_0060", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0061, int, agent.NoPrincipal]{Name: "note_0061", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0062, int, agent.NoPrincipal]{Name: "note_0062", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0063, int, agent.NoPrincipal]{Name: "note_0063", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0064, int, agent.NoPrincipal]{Name: "note_0064", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0065, int, agent.NoPrincipal]{Name: "note_0065", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0066, int, agent.NoPrincipal]{Name: "note_0066", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0067, int, agent.NoPrincipal]{Name: "note_0067", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0068, int, agent.NoPrincipal]{Name: "note_0068", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0069, int, agent.NoPrincipal]{Name: "note_0069", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0070, int, agent.NoPrincipal]{Name: "note_0070", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0071, int, agent.NoPrincipal]{Name: "note_0071", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0072, int, agent.NoPrincipal]{Name: "note_0072", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0073, int, agent.NoPrincipal]{Name: "note_0073", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0074, int, agent.NoPrincipal]{Name: "note_0074", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0075, int, agent.NoPrincipal]{Name: "note_0075", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0076, int, agent.NoPrincipal]{Name: "note_0076", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0077, int, agent.NoPrincipal]{Name: "note_0077", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0078, int, agent.NoPrincipal]{Name: "note_0078", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0079, int, agent.NoPrincipal]{Name: "note_0079", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0080, int, agent.NoPrincipal]{Name: "note_0080", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0081, int, agent.NoPrincipal]{Name: "note_0081", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0082, int, agent.NoPrincipal]{Name: "note_0082", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0083, int, agent.NoPrincipal]{Name: "note_0083", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0084, int, agent.NoPrincipal]{Name: "note_0084", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0085, int, agent.NoPrincipal]{Name: "note_0085", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0086, int, agent.NoPrincipal]{Name: "note_0086", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0087, int, agent.NoPrincipal]{Name: "note_0087", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0088, int, agent.NoPrincipal]{Name: "note_0088", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0089, int, agent.NoPrincipal]{Name: "note_0089", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0090, int, agent.NoPrincipal]{Name: "note_0090", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0091, int, agent.NoPrincipal]{Name: "note_0091", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0092, int, agent.NoPrincipal]{Name: "note_0092", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0093, int, agent.NoPrincipal]{Name: "note_0093", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0094, int, agent.NoPrincipal]{Name: "note_0094", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0095, int, agent.NoPrincipal]{Name: "note_0095", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0096, int, agent.NoPrincipal]{Name: "note_0096", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0097, int, agent.NoPrincipal]{Name: "note_0097", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0098, int, agent.NoPrincipal]{Name: "note_0098", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0099, int, agent.NoPrincipal]{Name: "note_0099", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0100, int, agent.NoPrincipal]{Name: "note_0100", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0101, int, agent.NoPrincipal]{Name: "note_0101", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0102, int, agent.NoPrincipal]{Name: "note_0102", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0103, int, agent.NoPrincipal]{Name: "note_0103", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0104, int, agent.NoPrincipal]{Name: "note_0104", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0105, int, agent.NoPrincipal]{Name: "note_0105", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0106, int, agent.NoPrincipal]{Name: "note_0106", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0107, int, agent.NoPrincipal]{Name: "note_0107", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0108, int, agent.NoPrincipal]{Name: "note_0108", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0109, int, agent.NoPrincipal]{Name: "note_0109", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0110, int, agent.NoPrincipal]{Name: "note_0110", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0111, int, agent.NoPrincipal]{Name: "note_0111", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0112, int, agent.NoPrincipal]{Name: "note_0112", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0113, int, agent.NoPrincipal]{Name: "note_0113", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0114, int, agent.NoPrincipal]{Name: "note_0114", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0115, int, agent.NoPrincipal]{Name: "note_0115", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0116, int, agent.NoPrincipal]{Name: "note_0116", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0117, int, agent.NoPrincipal]{Name: "note_0117", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0118, int, agent.NoPrincipal]{Name: "note_0118", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0119, int, agent.NoPrincipal]{Name: "note_0119", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0120, int, agent.NoPrincipal]{Name: "note_0120", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0121, int, agent.NoPrincipal]{Name: "note_0121", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0122, int, agent.NoPrincipal]{Name: "note_0122", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0123, int, agent.NoPrincipal]{Name: "note_0123", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0124, int, agent.NoPrincipal]{Name: "note_0124", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0125, int, agent.NoPrincipal]{Name: "note_0125", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0126, int, agent.NoPrincipal]{Name: "note_0126", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0127, int, agent.NoPrincipal]{Name: "note_0127", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0128, int, agent.NoPrincipal]{Name: "note_0128", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0129, int, agent.NoPrincipal]{Name: "note_0129", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0130, int, agent.NoPrincipal]{Name: "note_0130", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0131, int, agent.NoPrincipal]{Name: "note_0131", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0132, int, agent.NoPrincipal]{Name: "note_0132", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0133, int, agent.NoPrincipal]{Name: "note_0133", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0134, int, agent.NoPrincipal]{Name: "note_0134", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0135, int, agent.NoPrincipal]{Name: "note_0135", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0136, int, agent.NoPrincipal]{Name: "note_0136", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0137, int, agent.NoPrincipal]{Name: "note_0137", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0138, int, agent.NoPrincipal]{Name: "note_0138", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0139, int, agent.NoPrincipal]{Name: "note_0139", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0140, int, agent.NoPrincipal]{Name: "note_0140", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0141, int, agent.NoPrincipal]{Name: "note_0141", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0142, int, agent.NoPrincipal]{Name: "note_0142", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0143, int, agent.NoPrincipal]{Name: "note_0143", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0144, int, agent.NoPrincipal]{Name: "note_0144", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0145, int, agent.NoPrincipal]{Name: "note_0145", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0146, int, agent.NoPrincipal]{Name: "note_0146", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0147, int, agent.NoPrincipal]{Name: "note_0147", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0148, int, agent.NoPrincipal]{Name: "note_0148", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0149, int, agent.NoPrincipal]{Name: "note_0149", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0150, int, agent.NoPrincipal]{Name: "note_0150", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0151, int, agent.NoPrincipal]{Name: "note_0151", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0152, int, agent.NoPrincipal]{Name: "note_0152", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0153, int, agent.NoPrincipal]{Name: "note_0153", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0154, int, agent.NoPrincipal]{Name: "note_0154", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0155, int, agent.NoPrincipal]{Name: "note_0155", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0156, int, agent.NoPrincipal]{Name: "note_0156", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0157, int, agent.NoPrincipal]{Name: "note_0157", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0158, int, agent.NoPrincipal]{Name: "note_0158", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0159, int, agent.NoPrincipal]{Name: "note_0159", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0160, int, agent.NoPrincipal]{Name: "note_0160", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0161, int, agent.NoPrincipal]{Name: "note_0161", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0162, int, agent.NoPrincipal]{Name: "note_0162", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0163, int, agent.NoPrincipal]{Name: "note_0163", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0164, int, agent.NoPrincipal]{Name: "note_0164", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0165, int, agent.NoPrincipal]{Name: "note_0165", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0166, int, agent.NoPrincipal]{Name: "note_0166", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0167, int, agent.NoPrincipal]{Name: "note_0167", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0168, int, agent.NoPrincipal]{Name: "note_0168", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0169, int, agent.NoPrincipal]{Name: "note_0169", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0170, int, agent.NoPrincipal]{Name: "note_0170", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0171, int, agent.NoPrincipal]{Name: "note_0171", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0172, int, agent.NoPrincipal]{Name: "note_0172", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0173, int, agent.NoPrincipal]{Name: "note_0173", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0174, int, agent.NoPrincipal]{Name: "note_0174", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0175, int, agent.NoPrincipal]{Name: "note_0175", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0176, int, agent.NoPrincipal]{Name: "note_0176", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0177, int, agent.NoPrincipal]{Name: "note_0177", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0178, int, agent.NoPrincipal]{Name: "note_0178", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0179, int, agent.NoPrincipal]{Name: "note_0179", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0180, int, agent.NoPrincipal]{Name: "note_0180", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0181, int, agent.NoPrincipal]{Name: "note_0181", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0182, int, agent.NoPrincipal]{Name: "note_0182", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0183, int, agent.NoPrincipal]{Name: "note_0183", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0184, int, agent.NoPrincipal]{Name: "note_0184", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0185, int, agent.NoPrincipal]{Name: "note_0185", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0186, int, agent.NoPrincipal]{Name: "note_0186", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0187, int, agent.NoPrincipal]{Name: "note_0187", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0188, int, agent.NoPrincipal]{Name: "note_0188", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0189, int, agent.NoPrincipal]{Name: "note_0189", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0190, int, agent.NoPrincipal]{Name: "note_0190", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0191, int, agent.NoPrincipal]{Name: "note_0191", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0192, int, agent.NoPrincipal]{Name: "note_0192", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0193, int, agent.NoPrincipal]{Name: "note_0193", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0194, int, agent.NoPrincipal]{Name: "note_0194", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0195, int, agent.NoPrincipal]{Name: "note_0195", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0196, int, agent.NoPrincipal]{Name: "note_0196", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0197, int, agent.NoPrincipal]{Name: "note_0197", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0198, int, agent.NoPrincipal]{Name: "note_0198", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0199, int, agent.NoPrincipal]{Name: "note_0199", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0200, int, agent.NoPrincipal]{Name: "note_0200", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0201, int, agent.NoPrincipal]{Name: "note_0201", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0202, int, agent.NoPrincipal]{Name: "note_0202", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0203, int, agent.NoPrincipal]{Name: "note_0203", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0204, int, agent.NoPrincipal]{Name: "note_0204", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0205, int, agent.NoPrincipal]{Name: "note_0205", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0206, int, agent.NoPrincipal]{Name: "note_0206", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0207, int, agent.NoPrincipal]{Name: "note_0207", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0208, int, agent.NoPrincipal]{Name: "note_0208", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0209, int, agent.NoPrincipal]{Name: "note_0209", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0210, int, agent.NoPrincipal]{Name: "note_0210", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0211, int, agent.NoPrincipal]{Name: "note_0211", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0212, int, agent.NoPrincipal]{Name: "note_0212", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0213, int, agent.NoPrincipal]{Name: "note_0213", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0214, int, agent.NoPrincipal]{Name: "note_0214", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0215, int, agent.NoPrincipal]{Name: "note_0215", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0216, int, agent.NoPrincipal]{Name: "note_0216", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0217, int, agent.NoPrincipal]{Name: "note_0217", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0218, int, agent.NoPrincipal]{Name: "note_0218", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0219, int, agent.NoPrincipal]{Name: "note_0219", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0220, int, agent.NoPrincipal]{Name: "note_0220", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0221, int, agent.NoPrincipal]{Name: "note_0221", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0222, int, agent.NoPrincipal]{Name: "note_0222", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0223, int, agent.NoPrincipal]{Name: "note_0223", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0224, int, agent.NoPrincipal]{Name: "note_0224", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0225, int, agent.NoPrincipal]{Name: "note_0225", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0226, int, agent.NoPrincipal]{Name: "note_0226", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0227, int, agent.NoPrincipal]{Name: "note_0227", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0228, int, agent.NoPrincipal]{Name: "note_0228", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0229, int, agent.NoPrincipal]{Name: "note_0229", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0230, int, agent.NoPrincipal]{Name: "note_0230", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0231, int, agent.NoPrincipal]{Name: "note_0231", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0232, int, agent.NoPrincipal]{Name: "note_0232", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0233, int, agent.NoPrincipal]{Name: "note_0233", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0234, int, agent.NoPrincipal]{Name: "note_0234", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0235, int, agent.NoPrincipal]{Name: "note_0235", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0236, int, agent.NoPrincipal]{Name: "note_0236", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0237, int, agent.NoPrincipal]{Name: "note_0237", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0238, int, agent.NoPrincipal]{Name: "note_0238", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0239, int, agent.NoPrincipal]{Name: "note_0239", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0240, int, agent.NoPrincipal]{Name: "note_0240", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0241, int, agent.NoPrincipal]{Name: "note_0241", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0242, int, agent.NoPrincipal]{Name: "note_0242", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0243, int, agent.NoPrincipal]{Name: "note_0243", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0244, int, agent.NoPrincipal]{Name: "note_0244", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0245, int, agent.NoPrincipal]{Name: "note_0245", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0246, int, agent.NoPrincipal]{Name: "note_0246", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0247, int, agent.NoPrincipal]{Name: "note_0247", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0248, int, agent.NoPrincipal]{Name: "note_0248", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0249, int, agent.NoPrincipal]{Name: "note_0249", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0250, int, agent.NoPrincipal]{Name: "note_0250", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0251, int, agent.NoPrincipal]{Name: "note_0251", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0252, int, agent.NoPrincipal]{Name: "note_0252", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0253, int, agent.NoPrincipal]{Name: "note_0253", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0254, int, agent.NoPrincipal]{Name: "note_0254", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0255, int, agent.NoPrincipal]{Name: "note_0255", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0256, int, agent.NoPrincipal]{Name: "note_0256", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0257, int, agent.NoPrincipal]{Name: "note_0257", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0258, int, agent.NoPrincipal]{Name: "note_0258", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0259, int, agent.NoPrincipal]{Name: "note_0259", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0260, int, agent.NoPrincipal]{Name: "note_0260", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0261, int, agent.NoPrincipal]{Name: "note_0261", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0262, int, agent.NoPrincipal]{Name: "note_0262", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0263, int, agent.NoPrincipal]{Name: "note_0263", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0264, int, agent.NoPrincipal]{Name: "note_0264", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0265, int, agent.NoPrincipal]{Name: "note_0265", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0266, int, agent.NoPrincipal]{Name: "note_0266", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0267, int, agent.NoPrincipal]{Name: "note_0267", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0268, int, agent.NoPrincipal]{Name: "note_0268", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0269, int, agent.NoPrincipal]{Name: "note_0269", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0270, int, agent.NoPrincipal]{Name: "note_0270", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0271, int, agent.NoPrincipal]{Name: "note_0271", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0272, int, agent.NoPrincipal]{Name: "note_0272", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0273, int, agent.NoPrincipal]{Name: "note_0273", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0274, int, agent.NoPrincipal]{Name: "note_0274", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0275, int, agent.NoPrincipal]{Name: "note_0275", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0276, int, agent.NoPrincipal]{Name: "note_0276", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0277, int, agent.NoPrincipal]{Name: "note_0277", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0278, int, agent.NoPrincipal]{Name: "note_0278", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0279, int, agent.NoPrincipal]{Name: "note_0279", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0280, int, agent.NoPrincipal]{Name: "note_0280", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0281, int, agent.NoPrincipal]{Name: "note_0281", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0282, int, agent.NoPrincipal]{Name: "note_0282", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0283, int, agent.NoPrincipal]{Name: "note_0283", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0284, int, agent.NoPrincipal]{Name: "note_0284", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0285, int, agent.NoPrincipal]{Name: "note_0285", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0286, int, agent.NoPrincipal]{Name: "note_0286", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0287, int, agent.NoPrincipal]{Name: "note_0287", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0288, int, agent.NoPrincipal]{Name: "note_0288", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0289, int, agent.NoPrincipal]{Name: "note_0289", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0290, int, agent.NoPrincipal]{Name: "note_0290", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0291, int, agent.NoPrincipal]{Name: "note_0291", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0292, int, agent.NoPrincipal]{Name: "note_0292", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0293, int, agent.NoPrincipal]{Name: "note_0293", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0294, int, agent.NoPrincipal]{Name: "note_0294", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0295, int, agent.NoPrincipal]{Name: "note_0295", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0296, int, agent.NoPrincipal]{Name: "note_0296", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0297, int, agent.NoPrincipal]{Name: "note_0297", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0298, int, agent.NoPrincipal]{Name: "note_0298", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0299, int, agent.NoPrincipal]{Name: "note_0299", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0300, int, agent.NoPrincipal]{Name: "note_0300", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0301, int, agent.NoPrincipal]{Name: "note_0301", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0302, int, agent.NoPrincipal]{Name: "note_0302", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0303, int, agent.NoPrincipal]{Name: "note_0303", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0304, int, agent.NoPrincipal]{Name: "note_0304", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0305, int, agent.NoPrincipal]{Name: "note_0305", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0306, int, agent.NoPrincipal]{Name: "note_0306", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0307, int, agent.NoPrincipal]{Name: "note_0307", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0308, int, agent.NoPrincipal]{Name: "note_0308", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0309, int, agent.NoPrincipal]{Name: "note_0309", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0310, int, agent.NoPrincipal]{Name: "note_0310", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0311, int, agent.NoPrincipal]{Name: "note_0311", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0312, int, agent.NoPrincipal]{Name: "note_0312", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0313, int, agent.NoPrincipal]{Name: "note_0313", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0314, int, agent.NoPrincipal]{Name: "note_0314", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0315, int, agent.NoPrincipal]{Name: "note_0315", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0316, int, agent.NoPrincipal]{Name: "note_0316", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0317, int, agent.NoPrincipal]{Name: "note_0317", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0318, int, agent.NoPrincipal]{Name: "note_0318", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0319, int, agent.NoPrincipal]{Name: "note_0319", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0320, int, agent.NoPrincipal]{Name: "note_0320", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0321, int, agent.NoPrincipal]{Name: "note_0321", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0322, int, agent.NoPrincipal]{Name: "note_0322", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0323, int, agent.NoPrincipal]{Name: "note_0323", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0324, int, agent.NoPrincipal]{Name: "note_0324", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0325, int, agent.NoPrincipal]{Name: "note_0325", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0326, int, agent.NoPrincipal]{Name: "note_0326", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0327, int, agent.NoPrincipal]{Name: "note_0327", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0328, int, agent.NoPrincipal]{Name: "note_0328", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0329, int, agent.NoPrincipal]{Name: "note_0329", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0330, int, agent.NoPrincipal]{Name: "note_0330", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0331, int, agent.NoPrincipal]{Name: "note_0331", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0332, int, agent.NoPrincipal]{Name: "note_0332", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0333, int, agent.NoPrincipal]{Name: "note_0333", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0334, int, agent.NoPrincipal]{Name: "note_0334", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0335, int, agent.NoPrincipal]{Name: "note_0335", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0336, int, agent.NoPrincipal]{Name: "note_0336", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0337, int, agent.NoPrincipal]{Name: "note_0337", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0338, int, agent.NoPrincipal]{Name: "note_0338", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0339, int, agent.NoPrincipal]{Name: "note_0339", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0340, int, agent.NoPrincipal]{Name: "note_0340", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0341, int, agent.NoPrincipal]{Name: "note_0341", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0342, int, agent.NoPrincipal]{Name: "note_0342", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0343, int, agent.NoPrincipal]{Name: "note_0343", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0344, int, agent.NoPrincipal]{Name: "note_0344", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0345, int, agent.NoPrincipal]{Name: "note_0345", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0346, int, agent.NoPrincipal]{Name: "note_0346", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0347, int, agent.NoPrincipal]{Name: "note_0347", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0348, int, agent.NoPrincipal]{Name: "note_0348", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0349, int, agent.NoPrincipal]{Name: "note_0349", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0350, int, agent.NoPrincipal]{Name: "note_0350", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0351, int, agent.NoPrincipal]{Name: "note_0351", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0352, int, agent.NoPrincipal]{Name: "note_0352", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0353, int, agent.NoPrincipal]{Name: "note_0353", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0354, int, agent.NoPrincipal]{Name: "note_0354", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0355, int, agent.NoPrincipal]{Name: "note_0355", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0356, int, agent.NoPrincipal]{Name: "note_0356", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0357, int, agent.NoPrincipal]{Name: "note_0357", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0358, int, agent.NoPrincipal]{Name: "note_0358", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0359, int, agent.NoPrincipal]{Name: "note_0359", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0360, int, agent.NoPrincipal]{Name: "note_0360", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0361, int, agent.NoPrincipal]{Name: "note_0361", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0362, int, agent.NoPrincipal]{Name: "note_0362", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0363, int, agent.NoPrincipal]{Name: "note_0363", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0364, int, agent.NoPrincipal]{Name: "note_0364", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0365, int, agent.NoPrincipal]{Name: "note_0365", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0366, int, agent.NoPrincipal]{Name: "note_0366", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0367, int, agent.NoPrincipal]{Name: "note_0367", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0368, int, agent.NoPrincipal]{Name: "note_0368", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0369, int, agent.NoPrincipal]{Name: "note_0369", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0370, int, agent.NoPrincipal]{Name: "note_0370", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0371, int, agent.NoPrincipal]{Name: "note_0371", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0372, int, agent.NoPrincipal]{Name: "note_0372", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0373, int, agent.NoPrincipal]{Name: "note_0373", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0374, int, agent.NoPrincipal]{Name: "note_0374", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0375, int, agent.NoPrincipal]{Name: "note_0375", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0376, int, agent.NoPrincipal]{Name: "note_0376", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0377, int, agent.NoPrincipal]{Name: "note_0377", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0378, int, agent.NoPrincipal]{Name: "note_0378", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0379, int, agent.NoPrincipal]{Name: "note_0379", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0380, int, agent.NoPrincipal]{Name: "note_0380", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0381, int, agent.NoPrincipal]{Name: "note_0381", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0382, int, agent.NoPrincipal]{Name: "note_0382", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0383, int, agent.NoPrincipal]{Name: "note_0383", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0384, int, agent.NoPrincipal]{Name: "note_0384", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0385, int, agent.NoPrincipal]{Name: "note_0385", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0386, int, agent.NoPrincipal]{Name: "note_0386", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0387, int, agent.NoPrincipal]{Name: "note_0387", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0388, int, agent.NoPrincipal]{Name: "note_0388", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0389, int, agent.NoPrincipal]{Name: "note_0389", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0390, int, agent.NoPrincipal]{Name: "note_0390", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0391, int, agent.NoPrincipal]{Name: "note_0391", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0392, int, agent.NoPrincipal]{Name: "note_0392", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0393, int, agent.NoPrincipal]{Name: "note_0393", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0394, int, agent.NoPrincipal]{Name: "note_0394", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0395, int, agent.NoPrincipal]{Name: "note_0395", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0396, int, agent.NoPrincipal]{Name: "note_0396", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0397, int, agent.NoPrincipal]{Name: "note_0397", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0398, int, agent.NoPrincipal]{Name: "note_0398", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0399, int, agent.NoPrincipal]{Name: "note_0399", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0400, int, agent.NoPrincipal]{Name: "note_0400", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0401, int, agent.NoPrincipal]{Name: "note_0401", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0402, int, agent.NoPrincipal]{Name: "note_0402", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0403, int, agent.NoPrincipal]{Name: "note_0403", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0404, int, agent.NoPrincipal]{Name: "note_0404", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0405, int, agent.NoPrincipal]{Name: "note_0405", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0406, int, agent.NoPrincipal]{Name: "note_0406", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0407, int, agent.NoPrincipal]{Name: "note_0407", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0408, int, agent.NoPrincipal]{Name: "note_0408", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0409, int, agent.NoPrincipal]{Name: "note_0409", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0410, int, agent.NoPrincipal]{Name: "note_0410", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0411, int, agent.NoPrincipal]{Name: "note_0411", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0412, int, agent.NoPrincipal]{Name: "note_0412", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0413, int, agent.NoPrincipal]{Name: "note_0413", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0414, int, agent.NoPrincipal]{Name: "note_0414", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0415, int, agent.NoPrincipal]{Name: "note_0415", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0416, int, agent.NoPrincipal]{Name: "note_0416", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0417, int, agent.NoPrincipal]{Name: "note_0417", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0418, int, agent.NoPrincipal]{Name: "note_0418", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0419, int, agent.NoPrincipal]{Name: "note_0419", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0420, int, agent.NoPrincipal]{Name: "note_0420", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0421, int, agent.NoPrincipal]{Name: "note_0421", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0422, int, agent.NoPrincipal]{Name: "note_0422", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0423, int, agent.NoPrincipal]{Name: "note_0423", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0424, int, agent.NoPrincipal]{Name: "note_0424", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0425, int, agent.NoPrincipal]{Name: "note_0425", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0426, int, agent.NoPrincipal]{Name: "note_0426", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0427, int, agent.NoPrincipal]{Name: "note_0427", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0428, int, agent.NoPrincipal]{Name: "note_0428", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0429, int, agent.NoPrincipal]{Name: "note_0429", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0430, int, agent.NoPrincipal]{Name: "note_0430", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0431, int, agent.NoPrincipal]{Name: "note_0431", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0432, int, agent.NoPrincipal]{Name: "note_0432", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0433, int, agent.NoPrincipal]{Name: "note_0433", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0434, int, agent.NoPrincipal]{Name: "note_0434", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0435, int, agent.NoPrincipal]{Name: "note_0435", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0436, int, agent.NoPrincipal]{Name: "note_0436", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0437, int, agent.NoPrincipal]{Name: "note_0437", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0438, int, agent.NoPrincipal]{Name: "note_0438", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0439, int, agent.NoPrincipal]{Name: "note_0439", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0440, int, agent.NoPrincipal]{Name: "note_0440", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0441, int, agent.NoPrincipal]{Name: "note_0441", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0442, int, agent.NoPrincipal]{Name: "note_0442", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0443, int, agent.NoPrincipal]{Name: "note_0443", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0444, int, agent.NoPrincipal]{Name: "note_0444", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0445, int, agent.NoPrincipal]{Name: "note_0445", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0446, int, agent.NoPrincipal]{Name: "note_0446", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0447, int, agent.NoPrincipal]{Name: "note_0447", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0448, int, agent.NoPrincipal]{Name: "note_0448", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0449, int, agent.NoPrincipal]{Name: "note_0449", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0450, int, agent.NoPrincipal]{Name: "note_0450", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0451, int, agent.NoPrincipal]{Name: "note_0451", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0452, int, agent.NoPrincipal]{Name: "note_0452", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0453, int, agent.NoPrincipal]{Name: "note_0453", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0454, int, agent.NoPrincipal]{Name: "note_0454", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0455, int, agent.NoPrincipal]{Name: "note_0455", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0456, int, agent.NoPrincipal]{Name: "note_0456", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0457, int, agent.NoPrincipal]{Name: "note_0457", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0458, int, agent.NoPrincipal]{Name: "note_0458", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0459, int, agent.NoPrincipal]{Name: "note_0459", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0460, int, agent.NoPrincipal]{Name: "note_0460", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0461, int, agent.NoPrincipal]{Name: "note_0461", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0462, int, agent.NoPrincipal]{Name: "note_0462", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0463, int, agent.NoPrincipal]{Name: "note_0463", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0464, int, agent.NoPrincipal]{Name: "note_0464", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0465, int, agent.NoPrincipal]{Name: "note_0465", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0466, int, agent.NoPrincipal]{Name: "note_0466", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0467, int, agent.NoPrincipal]{Name: "note_0467", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0468, int, agent.NoPrincipal]{Name: "note_0468", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0469, int, agent.NoPrincipal]{Name: "note_0469", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0470, int, agent.NoPrincipal]{Name: "note_0470", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0471, int, agent.NoPrincipal]{Name: "note_0471", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0472, int, agent.NoPrincipal]{Name: "note_0472", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0473, int, agent.NoPrincipal]{Name: "note_0473", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0474, int, agent.NoPrincipal]{Name: "note_0474", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0475, int, agent.NoPrincipal]{Name: "note_0475", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0476, int, agent.NoPrincipal]{Name: "note_0476", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0477, int, agent.NoPrincipal]{Name: "note_0477", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0478, int, agent.NoPrincipal]{Name: "note_0478", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0479, int, agent.NoPrincipal]{Name: "note_0479", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0480, int, agent.NoPrincipal]{Name: "note_0480", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0481, int, agent.NoPrincipal]{Name: "note_0481", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0482, int, agent.NoPrincipal]{Name: "note_0482", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0483, int, agent.NoPrincipal]{Name: "note_0483", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0484, int, agent.NoPrincipal]{Name: "note_0484", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0485, int, agent.NoPrincipal]{Name: "note_0485", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0486, int, agent.NoPrincipal]{Name: "note_0486", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0487, int, agent.NoPrincipal]{Name: "note_0487", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0488, int, agent.NoPrincipal]{Name: "note_0488", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0489, int, agent.NoPrincipal]{Name: "note_0489", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0490, int, agent.NoPrincipal]{Name: "note_0490", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0491, int, agent.NoPrincipal]{Name: "note_0491", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0492, int, agent.NoPrincipal]{Name: "note_0492", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0493, int, agent.NoPrincipal]{Name: "note_0493", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0494, int, agent.NoPrincipal]{Name: "note_0494", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0495, int, agent.NoPrincipal]{Name: "note_0495", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0496, int, agent.NoPrincipal]{Name: "note_0496", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0497, int, agent.NoPrincipal]{Name: "note_0497", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0498, int, agent.NoPrincipal]{Name: "note_0498", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0499, int, agent.NoPrincipal]{Name: "note_0499", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0500, int, agent.NoPrincipal]{Name: "note_0500", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0501, int, agent.NoPrincipal]{Name: "note_0501", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0502, int, agent.NoPrincipal]{Name: "note_0502", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0503, int, agent.NoPrincipal]{Name: "note_0503", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0504, int, agent.NoPrincipal]{Name: "note_0504", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0505, int, agent.NoPrincipal]{Name: "note_0505", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0506, int, agent.NoPrincipal]{Name: "note_0506", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0507, int, agent.NoPrincipal]{Name: "note_0507", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0508, int, agent.NoPrincipal]{Name: "note_0508", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0509, int, agent.NoPrincipal]{Name: "note_0509", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0510, int, agent.NoPrincipal]{Name: "note_0510", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0511, int, agent.NoPrincipal]{Name: "note_0511", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0512, int, agent.NoPrincipal]{Name: "note_0512", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0513, int, agent.NoPrincipal]{Name: "note_0513", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0514, int, agent.NoPrincipal]{Name: "note_0514", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0515, int, agent.NoPrincipal]{Name: "note_0515", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0516, int, agent.NoPrincipal]{Name: "note_0516", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0517, int, agent.NoPrincipal]{Name: "note_0517", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0518, int, agent.NoPrincipal]{Name: "note_0518", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0519, int, agent.NoPrincipal]{Name: "note_0519", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0520, int, agent.NoPrincipal]{Name: "note_0520", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0521, int, agent.NoPrincipal]{Name: "note_0521", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0522, int, agent.NoPrincipal]{Name: "note_0522", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0523, int, agent.NoPrincipal]{Name: "note_0523", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0524, int, agent.NoPrincipal]{Name: "note_0524", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0525, int, agent.NoPrincipal]{Name: "note_0525", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0526, int, agent.NoPrincipal]{Name: "note_0526", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0527, int, agent.NoPrincipal]{Name: "note_0527", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0528, int, agent.NoPrincipal]{Name: "note_0528", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0529, int, agent.NoPrincipal]{Name: "note_0529", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0530, int, agent.NoPrincipal]{Name: "note_0530", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0531, int, agent.NoPrincipal]{Name: "note_0531", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0532, int, agent.NoPrincipal]{Name: "note_0532", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0533, int, agent.NoPrincipal]{Name: "note_0533", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0534, int, agent.NoPrincipal]{Name: "note_0534", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0535, int, agent.NoPrincipal]{Name: "note_0535", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0536, int, agent.NoPrincipal]{Name: "note_0536", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0537, int, agent.NoPrincipal]{Name: "note_0537", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0538, int, agent.NoPrincipal]{Name: "note_0538", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0539, int, agent.NoPrincipal]{Name: "note_0539", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0540, int, agent.NoPrincipal]{Name: "note_0540", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0541, int, agent.NoPrincipal]{Name: "note_0541", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0542, int, agent.NoPrincipal]{Name: "note_0542", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0543, int, agent.NoPrincipal]{Name: "note_0543", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0544, int, agent.NoPrincipal]{Name: "note_0544", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0545, int, agent.NoPrincipal]{Name: "note_0545", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0546, int, agent.NoPrincipal]{Name: "note_0546", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0547, int, agent.NoPrincipal]{Name: "note_0547", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0548, int, agent.NoPrincipal]{Name: "note_0548", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0549, int, agent.NoPrincipal]{Name: "note_0549", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0550, int, agent.NoPrincipal]{Name: "note_0550", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0551, int, agent.NoPrincipal]{Name: "note_0551", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0552, int, agent.NoPrincipal]{Name: "note_0552", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0553, int, agent.NoPrincipal]{Name: "note_0553", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0554, int, agent.NoPrincipal]{Name: "note_0554", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0555, int, agent.NoPrincipal]{Name: "note_0555", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0556, int, agent.NoPrincipal]{Name: "note_0556", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0557, int, agent.NoPrincipal]{Name: "note_0557", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0558, int, agent.NoPrincipal]{Name: "note_0558", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0559, int, agent.NoPrincipal]{Name: "note_0559", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0560, int, agent.NoPrincipal]{Name: "note_0560", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0561, int, agent.NoPrincipal]{Name: "note_0561", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0562, int, agent.NoPrincipal]{Name: "note_0562", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0563, int, agent.NoPrincipal]{Name: "note_0563", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0564, int, agent.NoPrincipal]{Name: "note_0564", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0565, int, agent.NoPrincipal]{Name: "note_0565", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0566, int, agent.NoPrincipal]{Name: "note_0566", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0567, int, agent.NoPrincipal]{Name: "note_0567", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0568, int, agent.NoPrincipal]{Name: "note_0568", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0569, int, agent.NoPrincipal]{Name: "note_0569", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0570, int, agent.NoPrincipal]{Name: "note_0570", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0571, int, agent.NoPrincipal]{Name: "note_0571", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0572, int, agent.NoPrincipal]{Name: "note_0572", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0573, int, agent.NoPrincipal]{Name: "note_0573", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0574, int, agent.NoPrincipal]{Name: "note_0574", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0575, int, agent.NoPrincipal]{Name: "note_0575", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0576, int, agent.NoPrincipal]{Name: "note_0576", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0577, int, agent.NoPrincipal]{Name: "note_0577", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0578, int, agent.NoPrincipal]{Name: "note_0578", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0579, int, agent.NoPrincipal]{Name: "note_0579", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0580, int, agent.NoPrincipal]{Name: "note_0580", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0581, int, agent.NoPrincipal]{Name: "note_0581", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0582, int, agent.NoPrincipal]{Name: "note_0582", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0583, int, agent.NoPrincipal]{Name: "note_0583", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0584, int, agent.NoPrincipal]{Name: "note_0584", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0585, int, agent.NoPrincipal]{Name: "note_0585", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0586, int, agent.NoPrincipal]{Name: "note_0586", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0587, int, agent.NoPrincipal]{Name: "note_0587", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0588, int, agent.NoPrincipal]{Name: "note_0588", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0589, int, agent.NoPrincipal]{Name: "note_0589", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0590, int, agent.NoPrincipal]{Name: "note_0590", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0591, int, agent.NoPrincipal]{Name: "note_0591", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0592, int, agent.NoPrincipal]{Name: "note_0592", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0593, int, agent.NoPrincipal]{Name: "note_0593", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0594, int, agent.NoPrincipal]{Name: "note_0594", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0595, int, agent.NoPrincipal]{Name: "note_0595", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0596, int, agent.NoPrincipal]{Name: "note_0596", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0597, int, agent.NoPrincipal]{Name: "note_0597", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0598, int, agent.NoPrincipal]{Name: "note_0598", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0599, int, agent.NoPrincipal]{Name: "note_0599", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0600, int, agent.NoPrincipal]{Name: "note_0600", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0601, int, agent.NoPrincipal]{Name: "note_0601", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0602, int, agent.NoPrincipal]{Name: "note_0602", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0603, int, agent.NoPrincipal]{Name: "note_0603", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0604, int, agent.NoPrincipal]{Name: "note_0604", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0605, int, agent.NoPrincipal]{Name: "note_0605", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0606, int, agent.NoPrincipal]{Name: "note_0606", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0607, int, agent.NoPrincipal]{Name: "note_0607", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0608, int, agent.NoPrincipal]{Name: "note_0608", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0609, int, agent.NoPrincipal]{Name: "note_0609", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0610, int, agent.NoPrincipal]{Name: "note_0610", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0611, int, agent.NoPrincipal]{Name: "note_0611", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0612, int, agent.NoPrincipal]{Name: "note_0612", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0613, int, agent.NoPrincipal]{Name: "note_0613", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0614, int, agent.NoPrincipal]{Name: "note_0614", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0615, int, agent.NoPrincipal]{Name: "note_0615", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0616, int, agent.NoPrincipal]{Name: "note_0616", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0617, int, agent.NoPrincipal]{Name: "note_0617", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0618, int, agent.NoPrincipal]{Name: "note_0618", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0619, int, agent.NoPrincipal]{Name: "note_0619", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0620, int, agent.NoPrincipal]{Name: "note_0620", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0621, int, agent.NoPrincipal]{Name: "note_0621", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0622, int, agent.NoPrincipal]{Name: "note_0622", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0623, int, agent.NoPrincipal]{Name: "note_0623", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0624, int, agent.NoPrincipal]{Name: "note_0624", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0625, int, agent.NoPrincipal]{Name: "note_0625", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0626, int, agent.NoPrincipal]{Name: "note_0626", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0627, int, agent.NoPrincipal]{Name: "note_0627", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0628, int, agent.NoPrincipal]{Name: "note_0628", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0629, int, agent.NoPrincipal]{Name: "note_0629", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0630, int, agent.NoPrincipal]{Name: "note_0630", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0631, int, agent.NoPrincipal]{Name: "note_0631", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0632, int, agent.NoPrincipal]{Name: "note_0632", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0633, int, agent.NoPrincipal]{Name: "note_0633", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0634, int, agent.NoPrincipal]{Name: "note_0634", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0635, int, agent.NoPrincipal]{Name: "note_0635", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0636, int, agent.NoPrincipal]{Name: "note_0636", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0637, int, agent.NoPrincipal]{Name: "note_0637", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0638, int, agent.NoPrincipal]{Name: "note_0638", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0639, int, agent.NoPrincipal]{Name: "note_0639", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0640, int, agent.NoPrincipal]{Name: "note_0640", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0641, int, agent.NoPrincipal]{Name: "note_0641", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0642, int, agent.NoPrincipal]{Name: "note_0642", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0643, int, agent.NoPrincipal]{Name: "note_0643", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0644, int, agent.NoPrincipal]{Name: "note_0644", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0645, int, agent.NoPrincipal]{Name: "note_0645", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0646, int, agent.NoPrincipal]{Name: "note_0646", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0647, int, agent.NoPrincipal]{Name: "note_0647", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0648, int, agent.NoPrincipal]{Name: "note_0648", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0649, int, agent.NoPrincipal]{Name: "note_0649", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0650, int, agent.NoPrincipal]{Name: "note_0650", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0651, int, agent.NoPrincipal]{Name: "note_0651", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0652, int, agent.NoPrincipal]{Name: "note_0652", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0653, int, agent.NoPrincipal]{Name: "note_0653", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0654, int, agent.NoPrincipal]{Name: "note_0654", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0655, int, agent.NoPrincipal]{Name: "note_0655", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0656, int, agent.NoPrincipal]{Name: "note_0656", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0657, int, agent.NoPrincipal]{Name: "note_0657", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0658, int, agent.NoPrincipal]{Name: "note_0658", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0659, int, agent.NoPrincipal]{Name: "note_0659", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0660, int, agent.NoPrincipal]{Name: "note_0660", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0661, int, agent.NoPrincipal]{Name: "note_0661", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0662, int, agent.NoPrincipal]{Name: "note_0662", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0663, int, agent.NoPrincipal]{Name: "note_0663", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0664, int, agent.NoPrincipal]{Name: "note_0664", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0665, int, agent.NoPrincipal]{Name: "note_0665", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0666, int, agent.NoPrincipal]{Name: "note_0666", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0667, int, agent.NoPrincipal]{Name: "note_0667", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0668, int, agent.NoPrincipal]{Name: "note_0668", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0669, int, agent.NoPrincipal]{Name: "note_0669", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0670, int, agent.NoPrincipal]{Name: "note_0670", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0671, int, agent.NoPrincipal]{Name: "note_0671", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0672, int, agent.NoPrincipal]{Name: "note_0672", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0673, int, agent.NoPrincipal]{Name: "note_0673", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0674, int, agent.NoPrincipal]{Name: "note_0674", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0675, int, agent.NoPrincipal]{Name: "note_0675", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0676, int, agent.NoPrincipal]{Name: "note_0676", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0677, int, agent.NoPrincipal]{Name: "note_0677", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0678, int, agent.NoPrincipal]{Name: "note_0678", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0679, int, agent.NoPrincipal]{Name: "note_0679", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0680, int, agent.NoPrincipal]{Name: "note_0680", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0681, int, agent.NoPrincipal]{Name: "note_0681", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0682, int, agent.NoPrincipal]{Name: "note_0682", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0683, int, agent.NoPrincipal]{Name: "note_0683", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0684, int, agent.NoPrincipal]{Name: "note_0684", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0685, int, agent.NoPrincipal]{Name: "note_0685", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0686, int, agent.NoPrincipal]{Name: "note_0686", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0687, int, agent.NoPrincipal]{Name: "note_0687", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0688, int, agent.NoPrincipal]{Name: "note_0688", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0689, int, agent.NoPrincipal]{Name: "note_0689", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0690, int, agent.NoPrincipal]{Name: "note_0690", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0691, int, agent.NoPrincipal]{Name: "note_0691", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0692, int, agent.NoPrincipal]{Name: "note_0692", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0693, int, agent.NoPrincipal]{Name: "note_0693", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0694, int, agent.NoPrincipal]{Name: "note_0694", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0695, int, agent.NoPrincipal]{Name: "note_0695", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0696, int, agent.NoPrincipal]{Name: "note_0696", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0697, int, agent.NoPrincipal]{Name: "note_0697", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0698, int, agent.NoPrincipal]{Name: "note_0698", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0699, int, agent.NoPrincipal]{Name: "note_0699", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0700, int, agent.NoPrincipal]{Name: "note_0700", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0701, int, agent.NoPrincipal]{Name: "note_0701", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0702, int, agent.NoPrincipal]{Name: "note_0702", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0703, int, agent.NoPrincipal]{Name: "note_0703", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0704, int, agent.NoPrincipal]{Name: "note_0704", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0705, int, agent.NoPrincipal]{Name: "note_0705", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0706, int, agent.NoPrincipal]{Name: "note_0706", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0707, int, agent.NoPrincipal]{Name: "note_0707", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0708, int, agent.NoPrincipal]{Name: "note_0708", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0709, int, agent.NoPrincipal]{Name: "note_0709", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0710, int, agent.NoPrincipal]{Name: "note_0710", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0711, int, agent.NoPrincipal]{Name: "note_0711", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0712, int, agent.NoPrincipal]{Name: "note_0712", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0713, int, agent.NoPrincipal]{Name: "note_0713", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0714, int, agent.NoPrincipal]{Name: "note_0714", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0715, int, agent.NoPrincipal]{Name: "note_0715", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0716, int, agent.NoPrincipal]{Name: "note_0716", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0717, int, agent.NoPrincipal]{Name: "note_0717", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0718, int, agent.NoPrincipal]{Name: "note_0718", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0719, int, agent.NoPrincipal]{Name: "note_0719", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0720, int, agent.NoPrincipal]{Name: "note_0720", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0721, int, agent.NoPrincipal]{Name: "note_0721", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0722, int, agent.NoPrincipal]{Name: "note_0722", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0723, int, agent.NoPrincipal]{Name: "note_0723", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0724, int, agent.NoPrincipal]{Name: "note_0724", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0725, int, agent.NoPrincipal]{Name: "note_0725", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0726, int, agent.NoPrincipal]{Name: "note_0726", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0727, int, agent.NoPrincipal]{Name: "note_0727", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0728, int, agent.NoPrincipal]{Name: "note_0728", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0729, int, agent.NoPrincipal]{Name: "note_0729", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0730, int, agent.NoPrincipal]{Name: "note_0730", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0731, int, agent.NoPrincipal]{Name: "note_0731", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0732, int, agent.NoPrincipal]{Name: "note_0732", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0733, int, agent.NoPrincipal]{Name: "note_0733", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0734, int, agent.NoPrincipal]{Name: "note_0734", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0735, int, agent.NoPrincipal]{Name: "note_0735", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0736, int, agent.NoPrincipal]{Name: "note_0736", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0737, int, agent.NoPrincipal]{Name: "note_0737", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0738, int, agent.NoPrincipal]{Name: "note_0738", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0739, int, agent.NoPrincipal]{Name: "note_0739", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0740, int, agent.NoPrincipal]{Name: "note_0740", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0741, int, agent.NoPrincipal]{Name: "note_0741", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0742, int, agent.NoPrincipal]{Name: "note_0742", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0743, int, agent.NoPrincipal]{Name: "note_0743", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0744, int, agent.NoPrincipal]{Name: "note_0744", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0745, int, agent.NoPrincipal]{Name: "note_0745", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0746, int, agent.NoPrincipal]{Name: "note_0746", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0747, int, agent.NoPrincipal]{Name: "note_0747", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0748, int, agent.NoPrincipal]{Name: "note_0748", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0749, int, agent.NoPrincipal]{Name: "note_0749", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0750, int, agent.NoPrincipal]{Name: "note_0750", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0751, int, agent.NoPrincipal]{Name: "note_0751", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0752, int, agent.NoPrincipal]{Name: "note_0752", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0753, int, agent.NoPrincipal]{Name: "note_0753", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0754, int, agent.NoPrincipal]{Name: "note_0754", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0755, int, agent.NoPrincipal]{Name: "note_0755", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0756, int, agent.NoPrincipal]{Name: "note_0756", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0757, int, agent.NoPrincipal]{Name: "note_0757", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0758, int, agent.NoPrincipal]{Name: "note_0758", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0759, int, agent.NoPrincipal]{Name: "note_0759", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0760, int, agent.NoPrincipal]{Name: "note_0760", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0761, int, agent.NoPrincipal]{Name: "note_0761", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0762, int, agent.NoPrincipal]{Name: "note_0762", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0763, int, agent.NoPrincipal]{Name: "note_0763", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0764, int, agent.NoPrincipal]{Name: "note_0764", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0765, int, agent.NoPrincipal]{Name: "note_0765", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0766, int, agent.NoPrincipal]{Name: "note_0766", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0767, int, agent.NoPrincipal]{Name: "note_0767", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0768, int, agent.NoPrincipal]{Name: "note_0768", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0769, int, agent.NoPrincipal]{Name: "note_0769", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0770, int, agent.NoPrincipal]{Name: "note_0770", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0771, int, agent.NoPrincipal]{Name: "note_0771", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0772, int, agent.NoPrincipal]{Name: "note_0772", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0773, int, agent.NoPrincipal]{Name: "note_0773", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0774, int, agent.NoPrincipal]{Name: "note_0774", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0775, int, agent.NoPrincipal]{Name: "note_0775", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0776, int, agent.NoPrincipal]{Name: "note_0776", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0777, int, agent.NoPrincipal]{Name: "note_0777", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0778, int, agent.NoPrincipal]{Name: "note_0778", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0779, int, agent.NoPrincipal]{Name: "note_0779", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0780, int, agent.NoPrincipal]{Name: "note_0780", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0781, int, agent.NoPrincipal]{Name: "note_0781", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0782, int, agent.NoPrincipal]{Name: "note_0782", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0783, int, agent.NoPrincipal]{Name: "note_0783", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0784, int, agent.NoPrincipal]{Name: "note_0784", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0785, int, agent.NoPrincipal]{Name: "note_0785", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0786, int, agent.NoPrincipal]{Name: "note_0786", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0787, int, agent.NoPrincipal]{Name: "note_0787", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0788, int, agent.NoPrincipal]{Name: "note_0788", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0789, int, agent.NoPrincipal]{Name: "note_0789", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0790, int, agent.NoPrincipal]{Name: "note_0790", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0791, int, agent.NoPrincipal]{Name: "note_0791", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0792, int, agent.NoPrincipal]{Name: "note_0792", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0793, int, agent.NoPrincipal]{Name: "note_0793", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0794, int, agent.NoPrincipal]{Name: "note_0794", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0795, int, agent.NoPrincipal]{Name: "note_0795", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0796, int, agent.NoPrincipal]{Name: "note_0796", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0797, int, agent.NoPrincipal]{Name: "note_0797", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0798, int, agent.NoPrincipal]{Name: "note_0798", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0799, int, agent.NoPrincipal]{Name: "note_0799", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0800, int, agent.NoPrincipal]{Name: "note_0800", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0801, int, agent.NoPrincipal]{Name: "note_0801", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0802, int, agent.NoPrincipal]{Name: "note_0802", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0803, int, agent.NoPrincipal]{Name: "note_0803", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0804, int, agent.NoPrincipal]{Name: "note_0804", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0805, int, agent.NoPrincipal]{Name: "note_0805", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0806, int, agent.NoPrincipal]{Name: "note_0806", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0807, int, agent.NoPrincipal]{Name: "note_0807", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0808, int, agent.NoPrincipal]{Name: "note_0808", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0809, int, agent.NoPrincipal]{Name: "note_0809", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0810, int, agent.NoPrincipal]{Name: "note_0810", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0811, int, agent.NoPrincipal]{Name: "note_0811", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0812, int, agent.NoPrincipal]{Name: "note_0812", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0813, int, agent.NoPrincipal]{Name: "note_0813", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0814, int, agent.NoPrincipal]{Name: "note_0814", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0815, int, agent.NoPrincipal]{Name: "note_0815", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0816, int, agent.NoPrincipal]{Name: "note_0816", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0817, int, agent.NoPrincipal]{Name: "note_0817", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0818, int, agent.NoPrincipal]{Name: "note_0818", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0819, int, agent.NoPrincipal]{Name: "note_0819", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0820, int, agent.NoPrincipal]{Name: "note_0820", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0821, int, agent.NoPrincipal]{Name: "note_0821", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0822, int, agent.NoPrincipal]{Name: "note_0822", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0823, int, agent.NoPrincipal]{Name: "note_0823", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0824, int, agent.NoPrincipal]{Name: "note_0824", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0825, int, agent.NoPrincipal]{Name: "note_0825", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0826, int, agent.NoPrincipal]{Name: "note_0826", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0827, int, agent.NoPrincipal]{Name: "note_0827", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0828, int, agent.NoPrincipal]{Name: "note_0828", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0829, int, agent.NoPrincipal]{Name: "note_0829", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0830, int, agent.NoPrincipal]{Name: "note_0830", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0831, int, agent.NoPrincipal]{Name: "note_0831", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0832, int, agent.NoPrincipal]{Name: "note_0832", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0833, int, agent.NoPrincipal]{Name: "note_0833", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0834, int, agent.NoPrincipal]{Name: "note_0834", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0835, int, agent.NoPrincipal]{Name: "note_0835", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0836, int, agent.NoPrincipal]{Name: "note_0836", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0837, int, agent.NoPrincipal]{Name: "note_0837", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0838, int, agent.NoPrincipal]{Name: "note_0838", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0839, int, agent.NoPrincipal]{Name: "note_0839", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0840, int, agent.NoPrincipal]{Name: "note_0840", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0841, int, agent.NoPrincipal]{Name: "note_0841", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0842, int, agent.NoPrincipal]{Name: "note_0842", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0843, int, agent.NoPrincipal]{Name: "note_0843", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0844, int, agent.NoPrincipal]{Name: "note_0844", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0845, int, agent.NoPrincipal]{Name: "note_0845", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0846, int, agent.NoPrincipal]{Name: "note_0846", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0847, int, agent.NoPrincipal]{Name: "note_0847", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0848, int, agent.NoPrincipal]{Name: "note_0848", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0849, int, agent.NoPrincipal]{Name: "note_0849", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0850, int, agent.NoPrincipal]{Name: "note_0850", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0851, int, agent.NoPrincipal]{Name: "note_0851", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0852, int, agent.NoPrincipal]{Name: "note_0852", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0853, int, agent.NoPrincipal]{Name: "note_0853", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0854, int, agent.NoPrincipal]{Name: "note_0854", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0855, int, agent.NoPrincipal]{Name: "note_0855", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0856, int, agent.NoPrincipal]{Name: "note_0856", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0857, int, agent.NoPrincipal]{Name: "note_0857", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0858, int, agent.NoPrincipal]{Name: "note_0858", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0859, int, agent.NoPrincipal]{Name: "note_0859", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0860, int, agent.NoPrincipal]{Name: "note_0860", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0861, int, agent.NoPrincipal]{Name: "note_0861", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0862, int, agent.NoPrincipal]{Name: "note_0862", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0863, int, agent.NoPrincipal]{Name: "note_0863", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0864, int, agent.NoPrincipal]{Name: "note_0864", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0865, int, agent.NoPrincipal]{Name: "note_0865", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0866, int, agent.NoPrincipal]{Name: "note_0866", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0867, int, agent.NoPrincipal]{Name: "note_0867", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0868, int, agent.NoPrincipal]{Name: "note_0868", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0869, int, agent.NoPrincipal]{Name: "note_0869", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0870, int, agent.NoPrincipal]{Name: "note_0870", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0871, int, agent.NoPrincipal]{Name: "note_0871", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0872, int, agent.NoPrincipal]{Name: "note_0872", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0873, int, agent.NoPrincipal]{Name: "note_0873", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0874, int, agent.NoPrincipal]{Name: "note_0874", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0875, int, agent.NoPrincipal]{Name: "note_0875", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0876, int, agent.NoPrincipal]{Name: "note_0876", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0877, int, agent.NoPrincipal]{Name: "note_0877", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0878, int, agent.NoPrincipal]{Name: "note_0878", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0879, int, agent.NoPrincipal]{Name: "note_0879", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0880, int, agent.NoPrincipal]{Name: "note_0880", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0881, int, agent.NoPrincipal]{Name: "note_0881", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0882, int, agent.NoPrincipal]{Name: "note_0882", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0883, int, agent.NoPrincipal]{Name: "note_0883", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0884, int, agent.NoPrincipal]{Name: "note_0884", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0885, int, agent.NoPrincipal]{Name: "note_0885", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0886, int, agent.NoPrincipal]{Name: "note_0886", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0887, int, agent.NoPrincipal]{Name: "note_0887", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0888, int, agent.NoPrincipal]{Name: "note_0888", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0889, int, agent.NoPrincipal]{Name: "note_0889", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0890, int, agent.NoPrincipal]{Name: "note_0890", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0891, int, agent.NoPrincipal]{Name: "note_0891", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0892, int, agent.NoPrincipal]{Name: "note_0892", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0893, int, agent.NoPrincipal]{Name: "note_0893", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0894, int, agent.NoPrincipal]{Name: "note_0894", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0895, int, agent.NoPrincipal]{Name: "note_0895", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0896, int, agent.NoPrincipal]{Name: "note_0896", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0897, int, agent.NoPrincipal]{Name: "note_0897", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0898, int, agent.NoPrincipal]{Name: "note_0898", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0899, int, agent.NoPrincipal]{Name: "note_0899", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0900, int, agent.NoPrincipal]{Name: "note_0900", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0901, int, agent.NoPrincipal]{Name: "note_0901", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0902, int, agent.NoPrincipal]{Name: "note_0902", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0903, int, agent.NoPrincipal]{Name: "note_0903", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0904, int, agent.NoPrincipal]{Name: "note_0904", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0905, int, agent.NoPrincipal]{Name: "note_0905", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0906, int, agent.NoPrincipal]{Name: "note_0906", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0907, int, agent.NoPrincipal]{Name: "note_0907", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0908, int, agent.NoPrincipal]{Name: "note_0908", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0909, int, agent.NoPrincipal]{Name: "note_0909", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0910, int, agent.NoPrincipal]{Name: "note_0910", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0911, int, agent.NoPrincipal]{Name: "note_0911", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0912, int, agent.NoPrincipal]{Name: "note_0912", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0913, int, agent.NoPrincipal]{Name: "note_0913", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0914, int, agent.NoPrincipal]{Name: "note_0914", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0915, int, agent.NoPrincipal]{Name: "note_0915", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0916, int, agent.NoPrincipal]{Name: "note_0916", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0917, int, agent.NoPrincipal]{Name: "note_0917", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0918, int, agent.NoPrincipal]{Name: "note_0918", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0919, int, agent.NoPrincipal]{Name: "note_0919", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0920, int, agent.NoPrincipal]{Name: "note_0920", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0921, int, agent.NoPrincipal]{Name: "note_0921", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0922, int, agent.NoPrincipal]{Name: "note_0922", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0923, int, agent.NoPrincipal]{Name: "note_0923", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0924, int, agent.NoPrincipal]{Name: "note_0924", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0925, int, agent.NoPrincipal]{Name: "note_0925", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0926, int, agent.NoPrincipal]{Name: "note_0926", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0927, int, agent.NoPrincipal]{Name: "note_0927", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0928, int, agent.NoPrincipal]{Name: "note_0928", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0929, int, agent.NoPrincipal]{Name: "note_0929", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0930, int, agent.NoPrincipal]{Name: "note_0930", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0931, int, agent.NoPrincipal]{Name: "note_0931", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0932, int, agent.NoPrincipal]{Name: "note_0932", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0933, int, agent.NoPrincipal]{Name: "note_0933", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0934, int, agent.NoPrincipal]{Name: "note_0934", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0935, int, agent.NoPrincipal]{Name: "note_0935", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0936, int, agent.NoPrincipal]{Name: "note_0936", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0937, int, agent.NoPrincipal]{Name: "note_0937", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0938, int, agent.NoPrincipal]{Name: "note_0938", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0939, int, agent.NoPrincipal]{Name: "note_0939", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0940, int, agent.NoPrincipal]{Name: "note_0940", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0941, int, agent.NoPrincipal]{Name: "note_0941", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0942, int, agent.NoPrincipal]{Name: "note_0942", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0943, int, agent.NoPrincipal]{Name: "note_0943", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0944, int, agent.NoPrincipal]{Name: "note_0944", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0945, int, agent.NoPrincipal]{Name: "note_0945", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0946, int, agent.NoPrincipal]{Name: "note_0946", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0947, int, agent.NoPrincipal]{Name: "note_0947", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0948, int, agent.NoPrincipal]{Name: "note_0948", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0949, int, agent.NoPrincipal]{Name: "note_0949", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0950, int, agent.NoPrincipal]{Name: "note_0950", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0951, int, agent.NoPrincipal]{Name: "note_0951", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0952, int, agent.NoPrincipal]{Name: "note_0952", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0953, int, agent.NoPrincipal]{Name: "note_0953", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0954, int, agent.NoPrincipal]{Name: "note_0954", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0955, int, agent.NoPrincipal]{Name: "note_0955", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0956, int, agent.NoPrincipal]{Name: "note_0956", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0957, int, agent.NoPrincipal]{Name: "note_0957", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0958, int, agent.NoPrincipal]{Name: "note_0958", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0959, int, agent.NoPrincipal]{Name: "note_0959", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0960, int, agent.NoPrincipal]{Name: "note_0960", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0961, int, agent.NoPrincipal]{Name: "note_0961", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0962, int, agent.NoPrincipal]{Name: "note_0962", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0963, int, agent.NoPrincipal]{Name: "note_0963", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0964, int, agent.NoPrincipal]{Name: "note_0964", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0965, int, agent.NoPrincipal]{Name: "note_0965", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0966, int, agent.NoPrincipal]{Name: "note_0966", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0967, int, agent.NoPrincipal]{Name: "note_0967", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0968, int, agent.NoPrincipal]{Name: "note_0968", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0969, int, agent.NoPrincipal]{Name: "note_0969", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0970, int, agent.NoPrincipal]{Name: "note_0970", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0971, int, agent.NoPrincipal]{Name: "note_0971", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0972, int, agent.NoPrincipal]{Name: "note_0972", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0973, int, agent.NoPrincipal]{Name: "note_0973", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0974, int, agent.NoPrincipal]{Name: "note_0974", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0975, int, agent.NoPrincipal]{Name: "note_0975", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0976, int, agent.NoPrincipal]{Name: "note_0976", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0977, int, agent.NoPrincipal]{Name: "note_0977", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0978, int, agent.NoPrincipal]{Name: "note_0978", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0979, int, agent.NoPrincipal]{Name: "note_0979", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0980, int, agent.NoPrincipal]{Name: "note_0980", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0981, int, agent.NoPrincipal]{Name: "note_0981", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0982, int, agent.NoPrincipal]{Name: "note_0982", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0983, int, agent.NoPrincipal]{Name: "note_0983", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0984, int, agent.NoPrincipal]{Name: "note_0984", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0985, int, agent.NoPrincipal]{Name: "note_0985", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0986, int, agent.NoPrincipal]{Name: "note_0986", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0987, int, agent.NoPrincipal]{Name: "note_0987", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0988, int, agent.NoPrincipal]{Name: "note_0988", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0989, int, agent.NoPrincipal]{Name: "note_0989", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0990, int, agent.NoPrincipal]{Name: "note_0990", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0991, int, agent.NoPrincipal]{Name: "note_0991", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0992, int, agent.NoPrincipal]{Name: "note_0992", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0993, int, agent.NoPrincipal]{Name: "note_0993", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0994, int, agent.NoPrincipal]{Name: "note_0994", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0995, int, agent.NoPrincipal]{Name: "note_0995", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0996, int, agent.NoPrincipal]{Name: "note_0996", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0997, int, agent.NoPrincipal]{Name: "note_0997", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0998, int, agent.NoPrincipal]{Name: "note_0998", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
		func() agent.Capability[int, agent.NoPrincipal] {
			return agent.Expose(agent.Variant[n0999, int, agent.NoPrincipal]{Name: "note_0999", Description: "Add a note.", Available: avail, AvailableReads: reads})
		},
	}
	out := make([]agent.Capability[int, agent.NoPrincipal], n)
	for i := range out {
		out[i] = all[i]()
	}
	return out
}
