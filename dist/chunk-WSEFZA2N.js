var d=(b,a)=>()=>{try{return a||b((a={exports:{}}).exports,a),a.exports}catch(c){throw a=0,c}};export{d as a};
//# sourceMappingURL=chunk-WSEFZA2N.js.map
